public import DocumentFormat
/// One revision of a document as read from (or just written to) the store.
public struct DocumentRevision: Sendable, Hashable {
    /// The document ID.
    public var id: String
    /// This revision's ID.
    public var rev: RevisionID
    /// Whether this revision is a tombstone.
    public var deleted: Bool
    /// The body; never contains `_`-prefixed top-level keys.
    public var body: JSONObject
    /// The attachments of this revision, by name.
    public var attachments: [String: AttachmentInfo]
    /// Changes-feed sequence of the document's latest change when read as the winner, or after
    /// a write; 0 when read as a non-winning revision.
    public var sequence: Int64

    /// Makes a revision value from its parts.
    public init(id: String, rev: RevisionID, deleted: Bool, body: JSONObject,
                attachments: [String: AttachmentInfo] = [:], sequence: Int64 = 0) {
        self.id = id
        self.rev = rev
        self.deleted = deleted
        self.body = body
        self.attachments = attachments
        self.sequence = sequence
    }
}
