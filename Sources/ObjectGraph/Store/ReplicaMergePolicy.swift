/// How ``ObjectContext/resolveReplicationConflicts(policy:)`` (and
/// ``IncrementalStore/resolveReplicaConflicts(policy:)`` below it) settles objects whose
/// rows hold concurrent versions after replication.
///
/// These are not the save policies (``MergePolicy``): a save conflict is between a context
/// and the store, a replica conflict between versions written on different replicas, which
/// must be settled the same way everywhere so replicas converge.
public enum ReplicaMergePolicy: Sendable {
    /// The stored winner wins for every property it changed since the versions diverged;
    /// properties only another version changed are kept (``ReplicaResolution/storeTrumps``).
    /// The default, as in the original app; deterministic, so replicas resolving
    /// independently agree. The CLI's `--prefer remote`.
    case storeTrumps
    /// The version written on this replica (``ReplicaConflict/localVersion``) wins for every
    /// property it changed (``ReplicaResolution/prefer(_:)``); falls back to ``storeTrumps``
    /// when the store knows no local version. The CLI's `--prefer local`.
    case localTrumps
    /// The closure decides per conflict; when it throws, nothing is resolved.
    case custom(@Sendable (ReplicaConflict) throws -> ReplicaResolution)

    /// What this policy decides for `conflict`; stores call it before writing anything.
    public func resolution(for conflict: ReplicaConflict) throws -> ReplicaResolution {
        switch self {
        case .storeTrumps:
            return .storeTrumps
        case .localTrumps:
            if let local = conflict.localVersion, local != conflict.winner.version { return .prefer(local) }
            return .storeTrumps
        case .custom(let decide):
            return try decide(conflict)
        }
    }
}
