public import DocumentFormat
/// A replicated revision the store would not insert (bad history, missing attachment, invalid
/// ID…), and why: reported per document so one bad revision does not sink a batch.
public struct RevisionRefusal: Sendable {
    /// The document the revision belongs to.
    public let id: String
    /// The refused revision.
    public let rev: RevisionID
    /// Why the store refused it.
    public let error: DocumentStoreError

    /// Records a refusal.
    public init(id: String, rev: RevisionID, error: DocumentStoreError) {
        self.id = id
        self.rev = rev
        self.error = error
    }
}
