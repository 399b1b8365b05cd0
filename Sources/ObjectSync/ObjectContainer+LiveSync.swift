public import Foundation
public import Replication
import DocumentStore

extension ObjectContainer {
    /// Syncs the store with `remote` continuously, for as long as the returned events are
    /// iterated: the live counterpart of `sync(with:options:)`, for any model.
    ///
    /// ```swift
    /// for try await event in try container.liveSync(with: remoteURL) {
    ///     print(event)        // connected, pulled 2, caught up, pushed 1, caught up, …
    /// }
    /// ```
    ///
    /// Iterating starts it: it takes the store file's sync lock (at once, or waiting up to
    /// `options.lockTimeout`), then pulls (settling conflicts and refreshing the contexts)
    /// at the start and whenever the remote changes, and pushes at the start and whenever the
    /// store's last sequence moves, whichever process saved (`StoreSync.live(options:live:hooks:)`
    /// says each step). `options.seed` fills the store when the remote and the store are both
    /// empty, as a one-shot sync does. A remote that cannot be reached is retried with backoff
    /// (`LiveSyncEvent.offline`), resuming from the checkpoints; documents the remote refuses
    /// stay pending and are offered again by the next push.
    ///
    /// The lock is held until the live sync has really stopped: cancelling the iterating task
    /// (or leaving the loop) stops it, the events end with `LiveSyncEvent.stopped(_:)` once it
    /// has, and the lock is free by then. `live` tunes polling and backoff (its `pull` and
    /// `push` follow `options.direction`); `hooks` lets an app keep a record of each step.
    /// - Throws: `ObjectContainerError.unusableRemote` at once for a remote that cannot be
    ///   used; the events throw `ObjectContainerError.syncAlreadyRunning` when another sync
    ///   holds the lock, and `ObjectContainerError.syncStepFailed` (step `pull`, `push` or
    ///   `wait`) for a failure retrying cannot fix (refused credentials or access, a local
    ///   store failure, another app's model on the remote), instead of a
    ///   `LiveSyncEvent.stopped(_:)` event.
    public func liveSync(with remote: URL, options: SyncOptions = .init(), live: LiveSyncOptions = .init(),
                         hooks: LiveSyncHooks = .init()) throws(ObjectContainerError) -> LiveContainerSync {
        let steps = try storeSync(with: remote, options: options)
        return LiveContainerSync(
            lock: { [self] () async throws(ObjectContainerError) -> SyncLock? in try await lockForSync(options) },
            run: { hooks in steps.live(options: options, live: live, hooks: hooks) },
            hooks: hooks)
    }
}
