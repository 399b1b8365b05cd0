/// A revision on its way from one replica to another with its ancestry (CouchDB's
/// `new_edits=false` path): read from a store or from CouchDB's JSON, written to a store or
/// sent to a server as given, never re-hashed. The one revision type of replication, on both
/// sides and over every peer.
public struct ReplicatedRevision: Sendable {
    /// The document ID.
    public var id: String
    /// The revision's ID as the other replica made it.
    public var rev: RevisionID
    /// Whether the revision is a tombstone.
    public var deleted: Bool
    /// The body, with `_` keys already stripped.
    public var body: JSONObject
    /// Ancestry, newest first, including `rev` itself as the first element, generations
    /// decreasing by one. Ancestors the store lacks become bodiless stubs.
    public var history: [RevisionID]
    /// The revision's attachments, by name.
    public var attachments: [String: ReplicatedAttachment]

    /// Makes a replicated revision; `history` defaults to just `rev`.
    public init(id: String, rev: RevisionID, deleted: Bool = false, body: JSONObject,
                history: [RevisionID]? = nil, attachments: [String: ReplicatedAttachment] = [:]) {
        self.id = id
        self.rev = rev
        self.deleted = deleted
        self.body = body
        self.history = history ?? [rev]
        self.attachments = attachments
    }
}
