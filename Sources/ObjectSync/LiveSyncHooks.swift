public import Foundation
public import Replication

/// One of the two steps a live sync repeats (`StoreSync.live(options:live:hooks:)`).
public enum LiveSyncStep: String, Sendable, Hashable, CustomStringConvertible {
    /// Copy the remote's new revisions here, settle conflicts, seed an empty pair of stores
    /// (once) and refresh the contexts.
    case pull
    /// Copy the store's new revisions to the remote.
    case push

    /// `pull` or `push`.
    public var description: String { rawValue }
}

/// What one step of a live sync did, for an app that keeps a record of its own (the
/// `recipes` program saves each as the store's last sync, for `recipes status`).
public struct LiveSyncStepReport: Sendable {
    /// Which step.
    public var step: LiveSyncStep
    /// When it started.
    public var startedAt: Date
    /// When it ended.
    public var finishedAt: Date
    /// Its counts, as a one-shot sync reports them: `pulled`, `conflictsResolved`, `seeded`
    /// and the pull's refusals for a pull, `pushed` and the push's refusals for a push.
    public var result: SyncResult
    /// The replication's own summary (`nil` when the step failed, or for a pull of a remote
    /// database that does not exist yet).
    public var summary: ReplicationSummary?
    /// Why the step failed; `nil` when it succeeded.
    public var error: (any Error)?

    /// A report of `step`, started at `startedAt`, that has done nothing yet.
    public init(step: LiveSyncStep, startedAt: Date) {
        self.step = step
        self.startedAt = startedAt
        finishedAt = startedAt
        result = SyncResult()
    }

    /// Whether the step succeeded.
    public var succeeded: Bool { error == nil }
}

/// What an app adds around the steps of a live sync, without a loop of its own: the same
/// live sync runs, and these are called from it.
public struct LiveSyncHooks: Sendable {
    /// Runs one step's replication: call `replicate` and return what it returns (or throw).
    /// A place for bookkeeping that must sit right before and after the copy itself, before
    /// conflicts are settled (the `recipes` program notes which local sequence is known to be
    /// on the remote). `nil`: the replication runs as it is.
    public var replication: (@Sendable (_ step: LiveSyncStep,
                                        _ replicate: @Sendable () async throws -> ReplicationSummary?) async throws -> ReplicationSummary?)?
    /// Told of each step that ended, succeeded or failed. A step stopped by the live sync's
    /// cancellation is not reported (it did not fail, and the next sync resumes it). Called on
    /// the live sync's task: keep it short.
    public var stepEnded: (@Sendable (LiveSyncStepReport) -> Void)?

    /// No hooks: the steps run as they are and nobody is told.
    public init() {}
}
