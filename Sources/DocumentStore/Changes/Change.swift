public import DocumentFormat
/// One document in the changes feed, at its latest change.
public struct Change: Sendable, Hashable {
    /// The sequence of the document's latest change.
    public var sequence: Int64
    /// The document ID.
    public var id: String
    /// Whether the winning revision is a tombstone.
    public var deleted: Bool
    /// All leaf revisions, winner first.
    public var revisions: [RevisionID]

    /// Makes a change from its parts.
    public init(sequence: Int64, id: String, deleted: Bool, revisions: [RevisionID]) {
        self.sequence = sequence
        self.id = id
        self.deleted = deleted
        self.revisions = revisions
    }
}
