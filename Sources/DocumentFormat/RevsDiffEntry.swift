/// What `revsDiff` reports for one document: the revisions this store lacks, and its leaves
/// that could be their ancestors (CouchDB's `possible_ancestors`).
public struct RevsDiffEntry: Sendable, Hashable {
    /// Asked-for revisions this store does not have.
    public var missing: [RevisionID]
    /// Leaf revisions held here whose generation is lower than some missing one.
    public var possibleAncestors: [RevisionID]

    /// Makes an entry from its parts.
    public init(missing: [RevisionID], possibleAncestors: [RevisionID]) {
        self.missing = missing
        self.possibleAncestors = possibleAncestors
    }
}
