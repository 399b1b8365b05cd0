import DocumentFormat
public import Replication
import DocumentStore
import Foundation
import Synchronization

extension StoreSync {
    /// Syncs continuously, for every model: the steps of a one-shot sync driven by the
    /// replication engine's live loop (`LiveSyncEvents`) until the iterating task is
    /// cancelled. This is the one live sync of the package: `ObjectContainer`'s
    /// `liveSync(with:options:live:hooks:)` runs it under the store's sync lock, and an app
    /// with a record of its own (the `recipes` program's `RecipesSync.live`) runs it with
    /// `hooks`.
    ///
    /// - A pull at the start and whenever the remote has new changes: the copy, then the
    ///   conflicts settled with `options.conflictPolicy`, then (once, on the first pull that
    ///   reaches the remote, and only when `options.seed` is given, the remote was empty before
    ///   that pull and the store has no objects) the seed saved, then a refresh of the
    ///   contexts when anything changed.
    /// - A push at the start and whenever the store's last sequence moves, whichever process
    ///   saved (it is read every `LiveSyncOptions.localPollInterval`); it creates a missing
    ///   remote database. Documents the remote refuses stay pending and are offered again by
    ///   the next push.
    ///
    /// `options.direction` leaves out pulls (`.pushOnly`) or pushes (`.pullOnly`) and
    /// overrides `live.pull` and `live.push`; `options.progress` is told of each batch. The
    /// lock and the peer are the caller's: `options.lockTimeout` and `options.clientOptions`
    /// are not read here. Hold the store's `SyncLock` while iterating, until the events end
    /// (`LiveSyncEvent.stopped(_:)` comes once the running step has really stopped).
    ///
    /// A remote that cannot be reached is retried with backoff (`LiveSyncEvent.offline`);
    /// refused credentials or access, and a failure of the local store or of settling,
    /// seeding or refreshing, end the events with `LiveSyncEvent.stopped(_:)` carrying the
    /// error (a local error as `ReplicationError.store` with the error as its cause).
    public func live(options: SyncOptions = .init(), live: LiveSyncOptions = .init(),
                     hooks: LiveSyncHooks = .init()) -> LiveSyncEvents {
        var live = live
        live.pull = options.direction != .pushOnly
        live.push = options.direction != .pullOnly
        let steps = self
        let store = documentStore
        // Whether the seed is still to be considered: until the first pull that reaches the
        // remote has decided.
        let seedPending = SeedDecision(pending: options.seed != nil)
        return LiveSyncEvents(
            remote: remote, options: live,
            localSequence: { try store.lastSequence },
            pull: {
                try await steps.reporting(.pull, hooks) { report in
                    let mayNeedSeed = seedPending.isPending
                    let remoteWasEmpty = mayNeedSeed ? try await steps.remoteIsEmpty() : false
                    let summary = try await steps.replicate(.pull, hooks) { try await steps.pull(progress: options.observer("pull")) }
                    report.summary = summary
                    report.result.pulled = summary?.docsWritten ?? 0
                    report.result.refused = summary?.outstandingRefusals.map { "\($0.id): \($0.reason)" } ?? []
                    report.result.conflictsResolved = try steps.resolveConflicts(policy: options.conflictPolicy)
                    if mayNeedSeed, let seed = options.seed {
                        seedPending.decide()
                        if remoteWasEmpty { report.result.seeded = try steps.seedIfEmpty(with: seed) }
                    }
                    if report.result.pulled > 0 || report.result.conflictsResolved > 0 { try steps.refresh() }
                    return LiveSyncEvents.PullResult(written: report.result.pulled, remoteSequence: summary?.endSequence)
                }
            },
            push: {
                try await steps.reporting(.push, hooks) { report in
                    let summary = try await steps.replicate(.push, hooks) { try await steps.push(progress: options.observer("push")) }
                    report.summary = summary
                    report.result.pushed = summary?.docsWritten ?? 0
                    report.result.refused = summary?.outstandingRefusals.map { "\($0.id): \($0.reason)" } ?? []
                    return report.result.pushed
                }
            })
    }

    /// Runs `replicate` through `hooks.replication`, when there is one.
    private func replicate(_ step: LiveSyncStep, _ hooks: LiveSyncHooks,
                           _ replicate: @escaping @Sendable () async throws -> ReplicationSummary?) async throws -> ReplicationSummary? {
        guard let hook = hooks.replication else { return try await replicate() }
        return try await hook(step, replicate)
    }

    /// Runs one step, filling its report, and tells `hooks.stepEnded` how it ended (unless
    /// the live sync's cancellation stopped it).
    private func reporting<Result>(_ step: LiveSyncStep, _ hooks: LiveSyncHooks,
                                   _ body: (inout LiveSyncStepReport) async throws -> Result) async throws -> Result {
        var report = LiveSyncStepReport(step: step, startedAt: Date())
        do {
            let result = try await body(&report)
            report.finishedAt = Date()
            hooks.stepEnded?(report)
            return result
        } catch {
            let cancelled = Task.isCancelled || error is CancellationError || (error as? ReplicationError) == .cancelled
            if !cancelled {
                report.error = error
                report.summary = nil
                report.finishedAt = Date()
                hooks.stepEnded?(report)
            }
            throw error
        }
    }
}

/// Whether a live sync still has to decide on seeding, shared by its steps.
private final class SeedDecision: Sendable {
    private let pending: Mutex<Bool>

    init(pending: Bool) {
        self.pending = Mutex(pending)
    }

    /// Whether the decision is still to be made.
    var isPending: Bool { pending.withLock { $0 } }

    /// Records that it was made.
    func decide() { pending.withLock { $0 = false } }
}
