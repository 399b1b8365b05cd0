public import RecipesKit
import DocumentStore
import Foundation
import ObjectSync
public import Replication

extension RecipesSync {
    /// Syncs continuously with the remote until the iterating task is cancelled: ObjectSync's
    /// live sync of this store (`StoreSync.live(options:live:hooks:)`), the one every model
    /// uses. A pull (followed by conflict resolution and a refresh of the object graph) at
    /// the start and whenever the remote has new changes, and a push (which creates the
    /// remote database if it is missing) at the start and whenever the store's last sequence
    /// moves, whichever process saved. `direction` leaves out pulls (`.pushOnly`) or pushes
    /// (`.pullOnly`).
    ///
    /// Every pull and push it runs is recorded as the store's last sync (pull steps with
    /// direction `pullOnly`, push steps with `pushOnly`), and keeps the status record's
    /// pending count and refusals as a one-shot sync does, so `recipes status` in another
    /// process shows how the live sync is doing while it runs. A step stopped by
    /// cancellation (the live sync ending) is not recorded; the previous record stays.
    ///
    /// Call it while holding the store's `SyncLock`, as ``runHoldingLock(direction:prefer:observer:progress:)``
    /// is called, and keep holding it until the events have ended (`LiveSyncEvent.stopped(_:)`
    /// comes once the running step has really stopped).
    public func live(direction: SyncDirection = .both, prefer: ConflictPreference = .remote,
                     options: LiveSyncOptions = .init()) -> LiveSyncEvents {
        var sync = SyncOptions()
        sync.direction = switch direction {
        case .both: .both
        case .pullOnly: .pullOnly
        case .pushOnly: .pushOnly
        }
        sync.conflictPolicy = prefer.replicaMergePolicy
        var hooks = LiveSyncHooks()
        hooks.replication = { step, replicate in
            switch step {
            case .pull: try await keepingStatus(ofPull: replicate)
            case .push: try await keepingStatus(ofPush: replicate)
            }
        }
        hooks.stepEnded = { report in recordLastSync(lastSyncReport(report)) }
        return steps.live(options: sync, live: options, hooks: hooks)
    }

    /// One live step as the store's last sync: succeeded with its counts, or failed with
    /// its error.
    private func lastSyncReport(_ step: LiveSyncStepReport) -> SyncReport {
        let name = step.step.rawValue
        var report = SyncReport(
            result: .succeeded, direction: step.step == .pull ? .pullOnly : .pushOnly, remote: remoteDescription,
            startedAt: step.startedAt, finishedAt: step.finishedAt, pulled: step.result.pulled, pushed: step.result.pushed,
            conflictsResolved: step.result.conflictsResolved, refusedDocuments: [], error: nil,
            steps: [SyncReport.Step(name: name, state: .succeeded, error: nil)])
        if let summary = step.summary {
            report.refusedDocuments = summary.refusedDocuments(step.step == .pull ? .pull : .push)
            report.refused = report.refusedDocuments.count
        }
        if let error = step.error {
            report.result = .failed
            report.error = SyncFailure(error, message: "\(name) failed: \(error)")
            report.steps = [SyncReport.Step(name: name, state: .failed, error: SyncFailure(error))]
        }
        return report
    }
}
