public import RecipesKit
import DocumentStore
import Foundation
import ObjectSync
public import Replication

extension RecipesSync {
    /// Syncs continuously with the remote until the iterating task is cancelled
    /// (`Replication.Sync.live(options:replication:)` with this store's sync steps):
    /// a pull (followed by conflict resolution and a refresh of the object graph) at the
    /// start and whenever the remote has new changes, and a push (which creates the remote
    /// database if it is missing) at the start and whenever the store's last sequence moves,
    /// whichever process saved. `direction` leaves out pulls (`.pushOnly`) or pushes
    /// (`.pullOnly`).
    ///
    /// Every pull and push it runs is recorded as the store's last sync (pull steps with
    /// direction `pullOnly`, push steps with `pushOnly`), so `recipes status` in another
    /// process shows how the live sync is doing while it runs.
    ///
    /// Call it while holding the store's `SyncLock`, as ``runHoldingLock(direction:prefer:observer:progress:)``
    /// is called, and keep holding it until the events have ended (`LiveSyncEvent.stopped(_:)`
    /// comes once the running step has really stopped).
    public func live(direction: SyncDirection = .both, prefer: ConflictPreference = .remote,
                     options: LiveSyncOptions = .init()) -> LiveSyncEvents {
        var options = options
        options.pull = direction != .pushOnly
        options.push = direction != .pullOnly
        let store = documentStore
        let steps = self.steps
        return LiveSyncEvents(
            remote: remote, options: options,
            localSequence: { try store.lastSequence },
            pull: {
                try await recordingLiveStep(.pullOnly) {
                    let summary = try await pullSummary()
                    let written = summary?.docsWritten ?? 0
                    let resolved = try steps.resolveConflicts(policy: prefer.replicaMergePolicy)
                    if written > 0 || resolved > 0 { try steps.refresh() }
                    let result = LiveSyncEvents.PullResult(written: written, remoteSequence: summary?.endSequence)
                    let refused = summary?.refusedDocuments(.pull) ?? []
                    return (result, {
                        $0.pulled = written
                        $0.conflictsResolved = resolved
                        $0.refusedDocuments = refused
                        $0.refused = refused.count
                    })
                }
            },
            push: {
                try await recordingLiveStep(.pushOnly) {
                    let pushed = try await push()
                    return (pushed.written, {
                        $0.pushed = pushed.written
                        $0.refusedDocuments = pushed.refused
                        $0.refused = pushed.refused.count
                    })
                }
            })
    }

    /// Runs one step of a live sync and saves it as the store's last sync: succeeded with
    /// the counts `step` fills in, or failed with its error. A step stopped by cancellation
    /// (the live sync ending) is not recorded; the previous record stays.
    private func recordingLiveStep<Result>(
        _ direction: SyncDirection, _ step: () async throws -> (Result, (inout SyncReport) -> Void)
    ) async throws -> Result {
        let started = Date()
        let name = direction == .pullOnly ? "pull" : "push"
        var report = SyncReport(
            result: .succeeded, direction: direction, remote: remoteDescription,
            startedAt: started, finishedAt: started, pulled: 0, pushed: 0,
            conflictsResolved: 0, refusedDocuments: [], error: nil, steps: [])
        do {
            let (result, fill) = try await step()
            fill(&report)
            report.steps = [SyncReport.Step(name: name, state: .succeeded, error: nil)]
            report.finishedAt = Date()
            recordLastSync(report)
            return result
        } catch {
            if !(error is CancellationError) && !Task.isCancelled {
                report.result = .failed
                let failure = SyncFailure(error)
                report.error = SyncFailure(error, message: "\(name) failed: \(error)")
                report.steps = [SyncReport.Step(name: name, state: .failed, error: failure)]
                report.finishedAt = Date()
                recordLastSync(report)
            }
            throw error
        }
    }
}
