import Foundation
import DocumentStore
import Logging
import RecipesCommandLine
import RecipesKit
import RecipesSyncKit
import Replication

extension SyncCommand {
    /// `recipes sync --live`: takes the sync lock, then reports the live sync's events until
    /// a signal stops it (exit 130 for SIGINT, 143 for SIGTERM) or an error it cannot retry
    /// does (exit 1). It stops too, with exit 1, when its store file is deleted, replaced or
    /// truncated (``StoreFileGuard``, as `list --watch`): it would otherwise go on syncing
    /// a file no other command sees.
    func runLive(_ sync: RecipesSync, store: RecipesStore, direction: SyncDirection, prefer: ConflictPreference,
                 lock behaviour: RecipesSync.LockBehaviour, logger: Logger) async throws {
        let fileGuard = try StoreFileGuard(store: store)
        let printer = LiveEventPrinter(json: json, remote: sync.remoteDescription)
        // Stopping is fast (the running request is dropped, committed batches are
        // checkpointed); the deadline only guards a step stuck below its cancellation points.
        let interrupts = InterruptHandler(deadline: .milliseconds(1800), terminatedStatus: 143)
        defer { interrupts.stop() }
        let storeURL = sync.storeURL
        let task = Task { () throws -> LiveSyncStop in
            let lock: SyncLock
            switch behaviour {
            case .failIfRunning: lock = try SyncLock.tryAcquire(forStore: storeURL)
            case .wait(let timeout): lock = try await SyncLock.acquire(forStore: storeURL, timeout: timeout, logger: logger)
            }
            defer { lock.release() }
            var stop = LiveSyncStop.cancelled
            for await event in sync.live(direction: direction, prefer: prefer) {
                printer.print(event)
                if case .stopped(let reason) = event { stop = reason }
            }
            return stop
        }
        interrupts.attach(task)
        let outcome = try await fileGuard.outcome(of: task)
        let stop: LiveSyncStop
        do {
            stop = try outcome.get()
        } catch let error as SyncLockError {
            if case .alreadyRunning = error { throw CommandFailure(message: error.description, status: 75) }
            throw CommandFailure(message: error.description)
        } catch is CancellationError {
            stop = .cancelled
        }
        switch stop {
        case .cancelled:
            throw ExitCodeFailure(status: interrupts.exitStatus)
        case .failed(let error):
            throw CommandFailure(message: error.description)
        }
    }
}
