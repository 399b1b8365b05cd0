/// How ``ObjectContext/resolveReplicaConflicts(policy:)`` (and
/// ``IncrementalStore/resolveReplicaConflicts(policy:)`` below it) settles objects whose
/// rows hold concurrent versions after replication.
///
/// These are not the save policies (``MergePolicy``): a save conflict is between a context
/// and the store, a replica conflict between versions written on different replicas, which
/// must be settled the same way everywhere so replicas converge.
public enum ReplicaMergePolicy: Sendable {
    /// The winning revision (CouchDB's deterministic choice, the same on every replica) wins
    /// for every property it changed since the versions diverged; properties only another
    /// version changed are kept (``ReplicaResolution/winnerTrumps``). Not the save policy
    /// ``MergePolicy/storeTrumps``, where the persisted row wins over a context's changes.
    /// The default, as in the original app; deterministic, so replicas resolving
    /// independently agree. The CLI's `--prefer remote`.
    case winnerTrumps
    /// The version written on this replica (``ReplicaConflict/localVersion``) wins for every
    /// property it changed (``ReplicaResolution/prefer(_:)``); falls back to ``winnerTrumps``
    /// when the store knows no local version. The CLI's `--prefer local`.
    case localTrumps
    /// The closure decides per conflict; when it throws, nothing is resolved.
    case custom(@Sendable (ReplicaConflict) throws -> ReplicaResolution)

    /// What this policy decides for `conflict`; stores call it before writing anything.
    public func resolution(for conflict: ReplicaConflict) throws -> ReplicaResolution {
        switch self {
        case .winnerTrumps:
            return .winnerTrumps
        case .localTrumps:
            if let local = conflict.localVersion, local != conflict.winner.version { return .prefer(local) }
            return .winnerTrumps
        case .custom(let decide):
            return try decide(conflict)
        }
    }
}
