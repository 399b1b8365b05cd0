/// How one replica conflict (``ReplicaConflict``) is settled; what a ``ReplicaMergePolicy``
/// decides per object.
///
/// Whatever is decided, the store writes the result as a child of the winning version and
/// discards the other versions, so the object has one version again and replicas converge
/// once they sync. The values follow one rule in every store, ``ReplicaMerge``: to-many
/// relationships always merge as sets (what any version added is kept, what any removed
/// goes) unless a version is kept whole.
public enum ReplicaResolution: Sendable, Hashable {
    /// The winner's values win for every property it changed since the versions diverged;
    /// properties only another version changed take that version's value. Deterministic:
    /// every replica resolving alone reaches the same row.
    case winnerTrumps
    /// The version `RowVersion` (a loser's, usually the one written on this replica) wins for
    /// every property it changed since it diverged from the winner; the rest is the winner's.
    /// Naming the winner, or a version that is not live, is ``winnerTrumps``.
    case prefer(RowVersion)
    /// Keep the version with this row version (the winner's or another live one's) as it is.
    case keep(RowVersion)
    /// Write the winner's row with these attribute values over it (to-many relationships
    /// merged as sets, as always).
    case merged([String: AttributeValue])
}
