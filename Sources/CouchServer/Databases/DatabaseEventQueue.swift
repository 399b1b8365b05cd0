import Synchronization

/// The database events not yet written to `_global_changes`, coalesced as CouchDB coalesces
/// them: each `(event, database)` pair is held once however often it happens before the next
/// write, so a burst of writes to one database costs one entry. What it holds is bounded by
/// the databases touched since the last write to `_global_changes`, never by the number of
/// requests.
///
/// Recording is synchronous and cheap (a lock and a set insert), so every write path can call
/// it; `GlobalChangesService` takes the pending events when the queue wakes it.
final class DatabaseEventQueue: Sendable {
    private struct Pending {
        /// The `_global_changes` document IDs, in the order they were first recorded.
        var order: [String] = []
        /// The same IDs, to coalesce repeats.
        var members: Set<String> = []
    }

    private let pending = Mutex(Pending())
    private let continuation: AsyncStream<Void>.Continuation
    /// Yields once after one or more events were recorded (at most one wake is buffered).
    let wakes: AsyncStream<Void>

    /// An empty queue.
    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.wakes = stream
        self.continuation = continuation
    }

    /// Records `event` for the database `name`. Events of `_global_changes` itself are not
    /// recorded, as in CouchDB, so writing them does not record more.
    func record(_ event: DatabaseEvent, of name: String) {
        guard name != GlobalChangesService.databaseName else { return }
        let id = event.documentID(of: name)
        let added = pending.withLock { pending in
            guard pending.members.insert(id).inserted else { return false }
            pending.order.append(id)
            return true
        }
        if added { continuation.yield() }
    }

    /// The pending `_global_changes` document IDs, oldest first, leaving the queue empty.
    func take() -> [String] {
        pending.withLock { pending in
            defer { pending = Pending() }
            return pending.order
        }
    }

    /// How many events are pending.
    var count: Int { pending.withLock { $0.order.count } }
}
