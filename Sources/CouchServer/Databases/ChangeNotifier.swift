/// Wakes `_changes?feed=longpoll` requests when a database gets a write through this server,
/// so they answer at once instead of at their next poll.
actor ChangeNotifier {
    private var nextWaiterID = 0
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]

    /// Tells every waiter that the database changed.
    func notify() {
        let pending = waiters
        waiters.removeAll()
        for continuation in pending.values { continuation.resume() }
    }

    /// Returns when the database changes or after `timeout`, whichever comes first.
    func wait(timeout: Duration) async {
        let id = nextWaiterID
        nextWaiterID += 1
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.expire(id)
        }
        await withCheckedContinuation { continuation in
            waiters[id] = continuation
        }
        timer.cancel()
    }

    private func expire(_ id: Int) {
        waiters.removeValue(forKey: id)?.resume()
    }
}
