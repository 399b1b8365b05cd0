/// A leaf of a document's tree, enough to choose the winner.
struct LeafRow: Sendable {
    let revNum: Int64
    let rev: RevisionID
    let deleted: Bool

    /// CouchDB's winner order: live before deleted, then the greater revision ID.
    static func winsOver(_ a: LeafRow, _ b: LeafRow) -> Bool {
        if a.deleted != b.deleted { return !a.deleted }
        return b.rev < a.rev
    }
}
