public import CouchProtocol
import DocumentStore
public import DocumentFormat

/// Settings of one replication.
public struct ReplicationOptions: Sendable {
    /// Changes read from the source per batch (a checkpoint follows each written batch).
    public var batchSize: Int = 500
    /// Documents per `_bulk_get` request when the source is a server (a batch is split into
    /// requests of at most this many, run over several connections).
    public var documentsPerFetch: Int = 250
    /// Documents per write request when the target is a server.
    public var documentsPerWrite: Int = 250
    /// Attachment bytes per write request at most; a larger document goes alone.
    public var bytesPerWrite: Int = 8 * 1024 * 1024
    /// Create the target database when it is missing (push to a new remote database).
    public var createTarget: Bool = false
    /// Replicate only some documents; its name is part of the replication ID.
    public var filter: ReplicationFilter?
    /// Replicate only these documents (CouchDB's `_doc_ids` filter: applied by a server
    /// source, locally for a local one); part of the replication ID.
    public var docIDs: [String]?
    /// Replicate only documents whose winning revision matches this Mango selector (CouchDB's
    /// `_selector` filter); part of the replication ID, so widening it later replicates what
    /// the old one left out. A deleted document matches nothing, so deletions of selected
    /// documents do not travel (as with CouchDB). A malformed selector fails the run before
    /// anything is transferred (`ReplicationError.invalidSelector`).
    public var selector: JSONValue?

    /// Defaults: batches of 500 changes, no filter, the target must exist.
    /// Looks at each batch of revisions before any of it is written to the target; what it
    /// throws stops the replication with that error, the batch unwritten and the checkpoint
    /// where it was. A pull uses it to refuse a remote whose data this store cannot hold
    /// (another app's model) before the first such document reaches the store.
    public var admission: (@Sendable ([ReplicatedRevision]) throws -> Void)?

    public init() {}

    /// The `docIDs` and `selector` as a changes selection; nil when neither is set.
    public func changesSelection() throws -> ChangesSelection? {
        guard docIDs != nil || selector != nil else { return nil }
        var selection = ChangesSelection(docIDs: docIDs.map(Set.init))
        if let selector {
            do {
                selection.selector = try DocumentSelector(selector)
            } catch let error as DocumentFormatError {
                guard case .invalidJSON(let reason) = error else { throw ReplicationError.invalidSelector(error.description) }
                throw ReplicationError.invalidSelector(reason)
            }
        }
        return selection
    }
}

/// Selects the documents a replication carries, by ID (for example one entity's prefix).
public struct ReplicationFilter: Sendable {
    /// A stable name; replications with different filters keep different checkpoints.
    public var name: String
    /// Whether a document ID is replicated.
    public var includes: @Sendable (String) -> Bool

    /// Makes a named filter.
    public init(name: String, includes: @escaping @Sendable (String) -> Bool) {
        self.name = name
        self.includes = includes
    }

    /// Documents whose ID starts with one of the prefixes.
    public static func idPrefixes(_ prefixes: [String]) -> ReplicationFilter {
        ReplicationFilter(name: "prefixes:" + prefixes.sorted().joined(separator: ",")) { id in
            prefixes.contains { id.hasPrefix($0) }
        }
    }
}
