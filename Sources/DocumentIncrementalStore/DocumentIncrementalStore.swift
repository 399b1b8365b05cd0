public import DocumentStore
public import Foundation
public import ObjectGraph
import DocumentFormat

/// An `IncrementalStore` that keeps every managed object as one JSON document in a
/// `DocumentStore`, in the layout of the original Cloudant incremental store (see the article
/// "Documents, Fetches and Indexes"):
/// IDs `CDTIS-<Entity>-<UUID>`, `CDTISEntityName`, a `CDTISObjectVersion` counter, typed
/// attribute encodings with `CDTISMeta_<name>` side keys, relationships as document IDs,
/// binary values as attachments, and a `CDTISMetaData` document describing the model.
///
/// Saves are one datastore transaction; row versions are document revision IDs, so
/// optimistic locking compares against the stored revision. Fetches are pushed down to
/// datastore queries served by indexes, and what a query cannot express is left to the
/// coordinator. Documents that arrive by replication become visible through
/// ``processExternalChanges()``; conflicting revisions are listed by ``replicaConflicts()``
/// and settled by ``resolveReplicaConflicts(policy:)`` (the object graph's one conflict API).
///
/// Open one with ``openCoordinator(url:model:)`` or create it on a file URL and hand it to a
/// `PersistentStoreCoordinator`.
// Unchecked: the loaded model, codec, caches and own-revision records are touched only inside
// `locked`, which holds `lock` for a whole store operation, datastore calls included, as the
// `IncrementalStore` contract serializes them. The lock is recursive so that operations may
// call one another; `Mutex` is not re-entrant.
public final class DocumentIncrementalStore: IncrementalStore, @unchecked Sendable {
    /// The datastore holding the documents.
    public let documentStore: DocumentStore

    let lock = NSRecursiveLock()
    var model: ObjectModel?
    var codec: ObjectDocumentCodec?
    /// The password's encryption of attributes marked encrypted, once ``unlock(password:)``
    /// accepted a password.
    var encryption: AttributeEncryption?
    var observer: (@Sendable (StoreChangeSet) -> Void)?
    /// To-many destinations of recently read or written documents, with the revision read.
    /// Emptied when it reaches ``toManyCacheLimit`` entries, so reading a whole large book
    /// a page at a time keeps its memory flat (see ``remember(toMany:of:rev:)``).
    var toManyCache: [String: (rev: String, toMany: [String: [ObjectID]])] = [:]
    /// How many documents' to-many lists ``toManyCache`` holds at most (about 20 MB of
    /// recipe-sized lists; tests lower it).
    var toManyCacheLimit = 32_768
    /// The latest revision this instance wrote per document: tells this instance's own writes
    /// from others' in the changes feed, so contexts are not refreshed for their own saves.
    /// Started afresh when it reaches ``ownRevisionsLimit`` entries (see
    /// ``rememberOwn(_:of:)``), so one long import does not keep an entry per document.
    /// Which leaf of a replica conflict was written here is not taken from it but from the
    /// datastore, which records it with the revisions (it holds across relaunches).
    var ownRevisions: [String: RevisionID] = [:]
    /// How many documents ``ownRevisions`` remembers at most (about 10 MB; tests lower it).
    var ownRevisionsLimit = 65_536
    /// Changes-feed position up to which external changes were processed.
    var processedSequence: Int64 = 0
    /// Whether the store holds a `CDTISMetaData` document; until it does, each save adds ours.
    var hasMetadataDocument = false
    /// While ``explainQueryPlans(_:)`` runs: the sub-queries a fetch's translation ran.
    var subqueryLog: [Query]?
    /// The datastore connection ``performAtomically(_:)`` or ``lockedSnapshot(_:)`` holds
    /// while its body runs. Set, read and cleared only under `lock`, so only the thread that
    /// holds the lock (the one running that body) ever sees it.
    var held: HeldConnection?

    /// Opens (or creates) the datastore file at `url`.
    public convenience init(url: URL, options: DocumentStore.Options = .init()) throws {
        do { self.init(documentStore: try DocumentStore(url: url, options: options)) }
        catch let e as DocumentStoreError { throw DocumentIncrementalStoreError.datastore(e) }
    }

    /// Opens (or creates) the datastore file at the file path `path`.
    package convenience init(path: String, options: DocumentStore.Options = .init()) throws {
        try self.init(url: URL(fileURLWithPath: path), options: options)
    }

    /// Wraps an open datastore (for example one a replicator also writes to).
    public init(documentStore: DocumentStore) {
        self.documentStore = documentStore
    }

    /// Opens the store file at `url` for `model` and returns a coordinator on it.
    /// - Throws: ``DocumentIncrementalStoreError`` when the file cannot be opened or the model
    ///   cannot be migrated from the stored one.
    public static func openCoordinator(url: URL, model: ObjectModel) throws -> PersistentStoreCoordinator {
        try PersistentStoreCoordinator(model: model, store: DocumentIncrementalStore(url: url))
    }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Runs a datastore call, turning its errors into the protocol's store failures.
    func ds<T>(_ body: () throws -> T) throws -> T {
        do { return try body() }
        catch let e as DocumentStoreError { throw IncrementalStoreError.storeFailure(e) }
    }

    /// ``locked(_:)`` with every datastore read of `body` on one snapshot
    /// (`DocumentStore.withSnapshot(_:)`): a fetch's sub-queries (`type.name CONTAINS %@`)
    /// and its own query see the same state, in one read transaction. Inside
    /// ``performAtomically(_:)`` the reads are the transaction's, on its writer.
    func lockedSnapshot<T>(_ body: () throws -> T) throws -> T {
        try locked {
            if held != nil { return try body() }
            return try ds {
                try documentStore.withSnapshot { snapshot in try holding(.reader(snapshot), body) }
            }
        }
    }

    /// Runs `body` with `connection` held: every datastore call this store makes meanwhile
    /// goes through it. `lock` is held throughout, so other threads' operations on this
    /// store wait until `body` returns.
    func holding<T>(_ connection: HeldConnection, _ body: () throws -> T) throws -> T {
        try locked {
            guard held == nil else {
                throw DocumentStoreError.storage("this store already holds a connection of \(documentStore.url?.path ?? "an in-memory store"); finish that work first")
            }
            held = connection
            defer { held = nil }
            return try body()
        }
    }

    /// Runs `body` on one of the datastore's reader connections (`DocumentStore.withReader(_:)`),
    /// off the caller's thread: every fetch and fault of `body` through this store reads that
    /// one snapshot. For servers on Swift concurrency's few threads, which must not block on
    /// SQLite. Other operations on this store wait until `body` returns, so keep it short.
    public func withReader<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await documentStore.withReader { reader in try self.holding(.reader(reader), body) }
    }

    /// Runs `body` on the datastore's writer connection (`DocumentStore.withWriter(_:)`), off
    /// the caller's thread: every read of `body` through this store sees what it wrote, each
    /// save is a transaction of its own, and no other writer of the file runs meanwhile.
    public func withWriter<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await documentStore.withWriter { writer in try self.holding(.writer(writer), body) }
    }

    /// Reads the datastore directly, through the connection held by the work in progress on
    /// this thread if any (``withReader(_:)``, ``withWriter(_:)``, ``performAtomically(_:)``),
    /// else the datastore's own: for an app's reads outside the object graph (a picture's
    /// attachment digest) made from inside such work.
    public func readDatastore<T>(_ body: (any DocumentStoreReading) throws -> T) throws -> T {
        try locked { try body(reader) }
    }

    /// Where a store operation reads: the connection its body holds, else the datastore
    /// (each read a transaction of its own). Call under `lock`.
    var reader: any DocumentStoreReading {
        switch held {
        case .reader(let reader): reader
        case .writer(let writer): writer
        case nil: documentStore
        }
    }

    /// Where a store operation writes: the transaction ``performAtomically(_:)`` holds, else
    /// the datastore (each write a transaction of its own). Call under `lock`.
    /// - Throws: `DocumentStoreError.storage` inside a snapshot, which only reads.
    func writer() throws -> any DocumentStoreWriting {
        switch held {
        case .writer(let writer): return writer
        case nil: return documentStore
        case .reader: throw DocumentStoreError.storage("a write was attempted inside a read-only snapshot of \(documentStore.url?.path ?? "an in-memory store")")
        }
    }

    func loadedCodec() throws -> ObjectDocumentCodec {
        guard let codec else { throw IncrementalStoreError.notLoaded }
        return codec
    }
}
