import DocumentStore

extension Sync {
    /// Syncs continuously until the iterating task is cancelled: a pull and a push at once,
    /// then a pull whenever the remote has new changes (one `_changes?feed=longpoll` request
    /// held open against a server) and a push whenever the store's last sequence moves
    /// (checked every ``LiveSyncOptions/localPollInterval``, so saves by other processes on
    /// the same file count too). Each pull and push is a one-shot replication resuming from
    /// its checkpoint.
    ///
    /// ```swift
    /// for await event in sync.live() {
    ///     print(event)            // connected, pulled 2, caught up, offline: … (retrying in 0.5 s), …
    /// }
    /// ```
    ///
    /// When the remote cannot be reached the sequence reports ``LiveSyncEvent/offline(_:retryIn:)``
    /// and tries again with capped exponential backoff; a refusal of the credentials or of
    /// access (401, 403) or a local store failure ends it with
    /// ``LiveSyncEvent/stopped(_:)`` carrying the error. A missing remote database is
    /// created by the push when `options.createTarget` is set, and is an offline state
    /// otherwise.
    public func live(options: LiveSyncOptions = .init(), replication: ReplicationOptions = .init()) -> LiveSyncEvents {
        let store = self.store
        return LiveSyncEvents(
            remote: remote, options: options,
            localSequence: { try await store.withReader { try $0.lastSequence } },
            pull: {
                do {
                    let summary = try await pull(options: replication)
                    return LiveSyncEvents.PullResult(written: summary.docsWritten, remoteSequence: summary.endSequence)
                } catch ReplicationError.databaseNotFound where options.push && replication.createTarget {
                    // The push creates it; until then it is empty.
                    return LiveSyncEvents.PullResult(written: 0, remoteSequence: nil)
                }
            },
            push: { try await push(options: replication).docsWritten })
    }
}
