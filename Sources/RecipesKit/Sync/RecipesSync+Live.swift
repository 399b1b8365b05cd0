import DocumentStore
public import Replication

extension RecipesSync {
    /// Syncs continuously with the remote until the iterating task is cancelled
    /// (``Replication/Sync/live(options:replication:)`` with this store's sync steps):
    /// a pull (followed by conflict resolution and a refresh of the object graph) at the
    /// start and whenever the remote has new changes, and a push (which creates the remote
    /// database if it is missing) at the start and whenever the store's last sequence moves,
    /// whichever process saved. `direction` leaves out pulls (`.pushOnly`) or pushes
    /// (`.pullOnly`).
    ///
    /// Call it while holding the store's ``SyncLock``, as ``runHoldingLock(direction:prefer:observer:progress:)``
    /// is called, and keep holding it until the events have ended (``LiveSyncEvent/stopped(_:)``
    /// comes once the running step has really stopped).
    public func live(direction: SyncDirection = .both, prefer: ConflictPreference = .remote,
                     options: LiveSyncOptions = .init()) -> LiveSyncEvents {
        var options = options
        options.pull = direction != .pushOnly
        options.push = direction != .pullOnly
        let store = documentStore
        let hooks = self.hooks
        return LiveSyncEvents(
            remote: remote, options: options,
            localSequence: { try store.lastSequence },
            pull: {
                let summary = try await pullSummary()
                let written = summary?.docsWritten ?? 0
                let resolved = try hooks.resolveConflicts(prefer: prefer)
                if written > 0 || resolved > 0 { try hooks.refresh() }
                return LiveSyncEvents.PullResult(written: written, remoteSequence: summary?.endSequence)
            },
            push: { try await push().written })
    }
}
