import Foundation
public import ObjectGraph
public import Replication

/// How `ObjectContainer.sync` runs: which halves, how conflicts are settled,
/// what to seed an empty remote with, how to reach the server and whom to tell of progress.
public struct SyncOptions: Sendable {
    /// Which halves of the sync run.
    public enum Direction: Sendable, Hashable {
        /// Pull, then push.
        case both
        /// Only copy the remote's changes here.
        case pullOnly
        /// Only copy this store's changes to the remote.
        case pushOnly
    }

    /// Which halves run (default both: pull, then push).
    public var direction: Direction = .both
    /// How conflicting versions of one object are settled after the pull (default
    /// `ReplicaMergePolicy.winnerTrumps`, CouchDB's deterministic winner, so every replica
    /// agrees; `ReplicaMergePolicy.localTrumps`: this store's own edits win).
    public var conflictPolicy: ReplicaMergePolicy = .winnerTrumps
    /// Fills a new store with first data, run only when the remote holds no documents and the
    /// store no objects after the pull (so two devices starting together do not both seed);
    /// what it inserts is saved and pushed in the same sync.
    public var seed: (@Sendable (ObjectContext) throws -> Void)?
    /// Wait this long for another sync of the same store file to finish (`nil`: fail at once).
    public var lockTimeout: Duration?
    /// How a server is reached (timeouts, retries, a CA file).
    public var clientOptions = CouchClientOptions()
    /// Told of each replication batch, with the step's name (`pull` or `push`).
    public var progress: (@Sendable (_ step: String, _ progress: ReplicationProgress) -> Void)?

    /// Options with every default.
    public init() {}

    /// ``progress`` for the replication of `step` (`pull` or `push`).
    func observer(_ step: String) -> (@Sendable (ReplicationProgress) -> Void)? {
        guard let progress else { return nil }
        return { progress(step, $0) }
    }
}
