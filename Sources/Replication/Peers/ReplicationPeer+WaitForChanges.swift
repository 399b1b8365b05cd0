extension ReplicationPeer {
    /// Polls ``changes(since:limit:)`` for one row every 250 ms until one comes or `timeout`
    /// passes: right for a local store, where a read costs a few microseconds. Cancelling the
    /// task ends the wait with `ReplicationError.cancelled`.
    public func waitForChanges(since: ReplicationSequence?, timeout: Duration) async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            if !(try await changes(since: since, limit: 1).rows.isEmpty) { return true }
            let now = clock.now
            if now >= deadline { return false }
            do {
                try await Task.sleep(for: min(.milliseconds(250), now.duration(to: deadline)))
            } catch {
                throw ReplicationError.cancelled
            }
        }
    }
}
