public import RecipesKit
package import DocumentStore
public import ObjectSync
import ObjectGraph
import DocumentIncrementalStore
public import Foundation
package import Logging
package import Replication
import Synchronization

/// One sync of a recipes store with its remote: pull → resolve conflicts → push → refresh,
/// run as chained operations on a `SyncOperationQueue`, with a `SyncReport` at the end
/// (also kept in `_local/recipes-sync` for `recipes status`).
///
/// A step that fails cancels the steps after it and the report says why; nothing is lost,
/// because replication checkpoints only durable batches and the next sync resumes there.
/// Only one sync per store runs at a time across processes: ``run(direction:prefer:lock:observer:progress:)``
/// takes the store's `SyncLock` first and releases it only once the queue has returned,
/// which is once the running step has really stopped, even after a cancellation.
public struct RecipesSync: Sendable {
    /// How to behave when another sync of the same store is running.
    public enum LockBehaviour: Sendable {
        /// Fail at once with `SyncLockError.alreadyRunning(lockFile:pid:)`.
        case failIfRunning
        /// Wait for the other sync to finish (at most `timeout`, if given).
        case wait(timeout: Duration?)
    }

    /// The steps, shared with every model's sync (ObjectSync's `StoreSync`); this type adds
    /// the `recipes` program's report, status record and step queue around them.
    public let steps: StoreSync
    /// The store file (its lock file sits next to it).
    public let storeURL: URL
    private let logger: Logger

    /// The local datastore.
    package var documentStore: DocumentStore { steps.documentStore }
    /// The other side.
    package var remote: any ReplicationPeer { steps.remote }
    /// The remote for people, password masked.
    public var remoteDescription: String { steps.remoteDescription }

    /// Prepares a sync; nothing happens until a method runs.
    package init(steps: StoreSync, storeURL: URL, logger: Logger = Logger(label: "recipes.sync")) {
        self.steps = steps
        self.storeURL = storeURL
        self.logger = logger
    }

    // MARK: - Halves

    /// Copies the remote's new revisions into the store and returns how many were written.
    /// A remote database that does not exist yet counts as empty (the push creates it).
    public func pull(progress: (@Sendable (SyncProgressEvent) -> Void)? = nil) async throws -> Int {
        try await pullSummary(progress: progress)?.docsWritten ?? 0
    }

    /// ``pull(progress:)``, returning the replication's summary (`nil` when the remote
    /// database does not exist yet).
    func pullSummary(progress: (@Sendable (SyncProgressEvent) -> Void)? = nil) async throws -> ReplicationSummary? {
        try await keepingStatus(ofPull: { try await steps.pull(progress: observer("pull", progress)) })
    }

    /// Runs a pull's replication (`replicate`) and keeps the status record up to date with
    /// it: what the pull wrote counts as pushed when nothing local was pending, and the pull's
    /// refusals replace the earlier ones. Another app's model on the remote is a
    /// `RecipesError` that says so.
    func keepingStatus(ofPull replicate: () async throws -> ReplicationSummary?) async throws -> ReplicationSummary? {
        let pendingBefore = try pendingChangeCount()
        let pulled: ReplicationSummary?
        do {
            pulled = try await replicate()
        } catch DocumentIncrementalStoreError.foreignModel(let difference) {
            throw RecipesError.store(
                "the remote database holds another app's data for a different model (\(difference)); nothing of it was stored here. Sync this store only with a database of apps using the same recipes model",
                cause: DocumentIncrementalStoreError.foreignModel(difference))
        }
        guard let summary = pulled else { return nil }
        var record = try statusRecord()
        // What the pull wrote is on the remote already: if nothing local was pending before,
        // nothing is pending now either.
        if pendingBefore == 0 {
            record.pushedThrough = max(record.pushedThrough, try documentStore.lastSequence)
        }
        record.replaceRefusals(.pull, with: summary.refusedDocuments(.pull))
        try writeStatusRecord(record)
        return summary
    }

    /// Copies the store's new revisions to the remote (creating the remote database if it is
    /// missing), and offers again what earlier pushes could not copy; returns how many
    /// revisions were written and the documents still refused (they stay pending, see
    /// `RefusedDocument`).
    public func push(progress: (@Sendable (SyncProgressEvent) -> Void)? = nil) async throws -> (written: Int, refused: [RefusedDocument]) {
        let summary = try await keepingStatus(ofPush: { try await steps.push(progress: observer("push", progress)) })
        return (summary?.docsWritten ?? 0, summary?.refusedDocuments(.push) ?? [])
    }

    /// Runs a push's replication (`replicate`) and keeps the status record up to date with
    /// it: everything up to the store's sequence before the push is on the remote, and the
    /// push's refusals replace the earlier ones.
    func keepingStatus(ofPush replicate: () async throws -> ReplicationSummary?) async throws -> ReplicationSummary? {
        let through = try documentStore.lastSequence
        let summary = try await replicate()
        var record = try statusRecord()
        record.pushedThrough = max(record.pushedThrough, through)
        record.replaceRefusals(.push, with: summary?.refusedDocuments(.push) ?? [])
        try writeStatusRecord(record)
        return summary
    }

    // MARK: - The queue

    /// Runs the steps `direction` asks for under the store's sync lock and returns the
    /// report (also saved for `recipes status`).
    /// - Throws: only `SyncLockError` (another sync holds the lock) or cancellation
    ///   while waiting for it; step failures are in the report.
    public func run(
        direction: SyncDirection = .both, prefer: ConflictPreference = .remote, lock behaviour: LockBehaviour = .failIfRunning,
        observer: SyncOperationQueue.Observer? = nil, progress: (@Sendable (SyncProgressEvent) -> Void)? = nil
    ) async throws -> SyncReport {
        let lock: SyncLock
        switch behaviour {
        case .failIfRunning:
            lock = try SyncLock.tryAcquire(forStore: storeURL)
        case .wait(let timeout):
            lock = try await SyncLock.acquire(forStore: storeURL, timeout: timeout, logger: logger)
        }
        defer { lock.release() }
        return try await runHoldingLock(direction: direction, prefer: prefer, observer: observer, progress: progress)
    }

    /// ``run(direction:prefer:lock:observer:progress:)`` for a caller that already holds
    /// the store's sync lock.
    public func runHoldingLock(
        direction: SyncDirection, prefer: ConflictPreference,
        observer: SyncOperationQueue.Observer? = nil, progress: (@Sendable (SyncProgressEvent) -> Void)? = nil
    ) async throws -> SyncReport {
        let started = Date()
        let counters = Counters()
        let queue = SyncOperationQueue(observer: observer)
        var last: SyncOperation?
        if direction != .pushOnly {
            let pull = SyncOperation("pull") { _ in
                let summary = try await self.pullSummary(progress: progress)
                counters.values.withLock {
                    $0.pulled = summary?.docsWritten ?? 0
                    $0.refused += summary?.refusedDocuments(.pull) ?? []
                }
            }
            let resolve = SyncOperation("resolve", dependsOn: [pull]) { _ in
                let resolved = try self.steps.resolveConflicts(policy: prefer.replicaMergePolicy)
                counters.values.withLock { $0.resolved = resolved }
            }
            queue.add(pull)
            queue.add(resolve)
            last = resolve
        }
        if direction != .pullOnly {
            let push = SyncOperation("push", dependsOn: last.map { [$0] } ?? []) { _ in
                let result = try await self.push(progress: progress)
                counters.values.withLock {
                    $0.pushed = result.written
                    $0.refused += result.refused
                }
            }
            queue.add(push)
            last = push
        }
        if direction != .pushOnly {
            queue.add(SyncOperation("refresh", dependsOn: last.map { [$0] } ?? []) { _ in try self.steps.refresh() })
        }
        let operations = try await queue.run()
        let steps = operations.map { operation -> SyncReport.Step in
            switch operation.state {
            case .succeeded: SyncReport.Step(name: operation.name, state: .succeeded, error: nil)
            case .failed(let message):
                SyncReport.Step(name: operation.name, state: .failed,
                                error: operation.error.map { SyncFailure($0, message: message) }
                                    ?? SyncFailure(kind: .other, message: message))
            case .cancelled(let reason):
                SyncReport.Step(name: operation.name, state: .cancelled,
                                error: SyncFailure(kind: .cancelled, message: reason, isTransient: true))
            case .pending, .running: SyncReport.Step(name: operation.name, state: .pending, error: nil)
            }
        }
        let failed = steps.first { $0.state == .failed }
        let cancelled = steps.contains { $0.state == .cancelled } && failed == nil
        let values = counters.values.withLock { $0 }
        let report = SyncReport(
            result: failed != nil ? .failed : (cancelled ? .cancelled : .succeeded), direction: direction,
            remote: remoteDescription, startedAt: started, finishedAt: Date(),
            pulled: values.pulled, pushed: values.pushed, conflictsResolved: values.resolved,
            refusedDocuments: values.refused,
            error: failed.map { step in
                var failure = step.error ?? SyncFailure(kind: .other, message: "unknown error")
                failure.message = "\(step.name) failed: \(failure.message)"
                return failure
            } ?? (cancelled ? SyncFailure(kind: .cancelled, message: "the sync was cancelled; run it again to finish", isTransient: true) : nil),
            steps: steps)
        recordLastSync(report)
        return report
    }

    /// Saves `report` as the store's last sync, for `recipes status`; a failure to save it
    /// is logged, not thrown, since the sync itself is done.
    func recordLastSync(_ report: SyncReport) {
        do {
            var record = try statusRecord()
            record.lastSync = report
            try writeStatusRecord(record)
        } catch {
            logger.warning("cannot record the sync result: \(error)")
        }
    }

    // MARK: - Status

    /// The saved sync state (an empty one before the first sync).
    public func statusRecord() throws -> SyncStatusRecord {
        try SyncStatusRecord.stored(in: documentStore)
    }

    /// Documents changed in the store since its changes were last known to be on the remote.
    public func pendingChangeCount() throws -> Int {
        try SyncStatusRecord.pendingChangeCount(of: documentStore)
    }

    private func writeStatusRecord(_ record: SyncStatusRecord) throws {
        try record.write(to: documentStore)
    }

    private func observer(_ step: String, _ progress: (@Sendable (SyncProgressEvent) -> Void)?) -> (@Sendable (ReplicationProgress) -> Void)? {
        guard let progress else { return nil }
        return { replication in
            progress(SyncProgressEvent(step: step, processed: replication.changesProcessed, total: replication.totalChangesEstimate))
        }
    }

    /// What the steps report, written from the steps' tasks.
    private final class Counters: Sendable {
        struct Values: Sendable {
            var pulled = 0
            var pushed = 0
            var resolved = 0
            var refused: [RefusedDocument] = []
        }

        let values = Mutex(Values())
    }
}
