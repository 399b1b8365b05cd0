public import DocumentStore
public import ObjectGraph

/// A document with several live revisions (typically after a replication pull), in
/// object-graph terms: the winning row every replica agrees on and the other live rows.
public struct ReplicaConflict: Sendable {
    /// The object.
    public var objectID: ObjectID
    /// The row of the winning revision (the one the datastore serves).
    public var winner: RowSnapshot
    /// The rows of the other live revisions.
    public var others: [RowSnapshot]
    /// The version of the revision written on this replica, when one of the leaves is known
    /// to be (`nil` when this store instance did not write any of them).
    public var localVersion: RowVersion?
    /// Properties whose values differ between the winner and some other revision.
    public var conflictingProperties: Set<String>
}

/// How ``DocumentIncrementalStore/resolveConflicts(policy:)`` settles replica conflicts.
///
/// Every policy writes the result as a child of the winning revision and deletes the other
/// leaves, so the document has one live revision again and replicas converge once they sync.
public enum ReplicaMergePolicy: Sendable {
    /// The stored winner's values win for every property it changed since the revisions
    /// diverged; properties only the other revision changed are kept (the default, as in the
    /// original app). Deterministic, so replicas resolving independently agree.
    case storeTrumps
    /// The revision written on this replica wins for every property it changed; the rest
    /// comes from the other revision. Falls back to ``storeTrumps`` when no leaf is local.
    case localTrumps
    /// The closure decides per conflict.
    case custom(@Sendable (ReplicaConflict) -> ReplicaResolution)
}

/// What a custom replica merge policy decides for one conflict.
public enum ReplicaResolution: Sendable, Hashable {
    /// Keep the winner as it is; delete the other revisions.
    case keepWinner
    /// Keep the revision with this version (a winner's or another leaf's row version).
    case keep(RowVersion)
    /// Write the winner's row with these attribute values over it.
    case merged([String: AttributeValue])
}
