import CouchProtocol
import Synchronization

/// Which requests are using a served database, and whether it is being deleted: a delete
/// stops new requests (they get 404 `not_found`), ends open feeds, and waits for the
/// requests already inside before the store is closed, so none of them ever meets a closed
/// store.
final class DatabaseLifecycle: Sendable {
    private struct State {
        var active = 0
        var deleting = false
        var drained: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Whether a delete has started; feeds end when they see it.
    var isDeleting: Bool { state.withLock { $0.deleting } }

    /// Runs `work` as one request using the database.
    /// - Throws: 404 `not_found` (`CouchError.databaseMissing`) once a delete has started,
    ///   as the database is then gone for every new request; otherwise what `work` throws.
    func withLease<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        try enter()
        defer { leave() }
        return try await work()
    }

    /// Runs `work` as one request using the database, or returns `nil` without running it
    /// once a delete has started (for feeds, which then end cleanly instead of failing).
    func withLeaseIfOpen<T: Sendable>(_ work: () async throws -> T) async throws -> T? {
        do { try enter() } catch { return nil }
        defer { leave() }
        return try await work()
    }

    /// Counts one more request in; 404 once deleting.
    private func enter() throws {
        try state.withLock { current in
            if current.deleting { throw CouchError.databaseMissing }
            current.active += 1
        }
    }

    /// Counts a request out, waking the delete waiting for the last one.
    private func leave() {
        let waiting = state.withLock { current -> [CheckedContinuation<Void, Never>] in
            current.active -= 1
            guard current.active == 0 else { return [] }
            defer { current.drained = [] }
            return current.drained
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Marks the database as being deleted. Returns `false` when another delete already has.
    func beginDeleting() -> Bool {
        state.withLock { current in
            if current.deleting { return false }
            current.deleting = true
            return true
        }
    }

    /// Returns once no request uses the database (call after ``beginDeleting()``).
    func waitUntilDrained() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { current -> Bool in
                if current.active == 0 { return true }
                current.drained.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
