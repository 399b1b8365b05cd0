import Synchronization

/// Runs sync operations one at a time in dependency order, as the original app's chained
/// operation queue did: an operation starts only when all its dependencies succeeded;
/// when one fails, everything depending on it is cancelled (with the reason) and the
/// operations that do not depend on it still run.
///
/// Cancelling the task that runs ``run()`` (or calling ``cancel()``) cancels the running
/// operation and the ones not started. ``run()`` returns only once the running operation
/// has really stopped, however long it takes to notice: whoever holds a lock around the
/// queue (the store's `SyncLock`) holds it until nothing writes any more.
public final class SyncOperationQueue: Sendable {
    /// Called when an operation starts and when it ends.
    public typealias Observer = @Sendable (SyncOperation) -> Void

    private struct State {
        var operations: [SyncOperation] = []
        var cancelled = false
        var running: Task<Void, any Error>?
    }

    private let state = Mutex(State())
    private let observer: Observer?

    /// An empty queue; `observer` hears of every start and end.
    public init(observer: Observer? = nil) {
        self.observer = observer
    }

    /// Adds an operation (its dependencies must be added too, before or after).
    public func add(_ operation: SyncOperation) {
        state.withLock { $0.operations.append(operation) }
    }

    /// The operations, in the order they were added.
    public var allOperations: [SyncOperation] {
        state.withLock { $0.operations }
    }

    /// Cancels the running operation and the ones not started; ``run()`` still waits for the
    /// running one to stop.
    public func cancel() {
        let running = state.withLock { state in
            state.cancelled = true
            return state.running
        }
        running?.cancel()
    }

    /// Runs every operation in dependency order and returns them with their final states.
    /// - Throws: ``SyncQueueError/dependencyCycle(_:)`` when dependencies form a cycle or
    ///   name an operation not in the queue (nothing runs then).
    @discardableResult
    public func run() async throws -> [SyncOperation] {
        let order = try Self.orderedByDependencies(allOperations)
        for operation in order {
            if state.withLock({ $0.cancelled }) || Task.isCancelled {
                operation.setState(.cancelled("the sync was cancelled"))
                observer?(operation)
                continue
            }
            if let blocked = operation.dependencies.first(where: { $0.state != .succeeded }) {
                operation.setState(.cancelled("\(blocked.name) did not succeed"))
                observer?(operation)
                continue
            }
            operation.setState(.running)
            observer?(operation)
            let task = Task { try await operation.perform() }
            let cancelledMeanwhile = state.withLock { state in
                state.running = task
                return state.cancelled
            }
            if cancelledMeanwhile { task.cancel() }
            // `task.result` returns only when the operation has finished: a cancellation
            // asks it to stop and this keeps waiting until it has.
            let result = await withTaskCancellationHandler { await task.result } onCancel: { task.cancel() }
            let cancelled = state.withLock { state in
                state.running = nil
                return state.cancelled
            }
            switch result {
            case .success:
                operation.setState(.succeeded)
            case .failure(let error):
                if error is CancellationError || Task.isCancelled || cancelled {
                    operation.setState(.cancelled("the sync was cancelled"), error: error)
                } else {
                    operation.setState(.failed(String(describing: error)), error: error)
                }
            }
            observer?(operation)
        }
        return order
    }

    /// A topological order that keeps the insertion order where dependencies allow.
    static func orderedByDependencies(_ operations: [SyncOperation]) throws(SyncQueueError) -> [SyncOperation] {
        let known = Set(operations.map(ObjectIdentifier.init))
        for operation in operations {
            if let missing = operation.dependencies.first(where: { !known.contains(ObjectIdentifier($0)) }) {
                throw .dependencyCycle("\(operation.name) depends on \(missing.name), which is not in the queue")
            }
        }
        var done = Set<ObjectIdentifier>()
        var order: [SyncOperation] = []
        while order.count < operations.count {
            guard let next = operations.first(where: { operation in
                !done.contains(ObjectIdentifier(operation))
                    && operation.dependencies.allSatisfy { done.contains(ObjectIdentifier($0)) }
            }) else {
                let stuck = operations.filter { !done.contains(ObjectIdentifier($0)) }.map(\.name)
                throw .dependencyCycle("the operations " + stuck.joined(separator: ", ") + " depend on each other")
            }
            done.insert(ObjectIdentifier(next))
            order.append(next)
        }
        return order
    }
}

/// Why a sync queue could not run at all.
public enum SyncQueueError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The operations' dependencies cannot be ordered.
    case dependencyCycle(String)

    /// The problem, one line.
    public var description: String {
        switch self {
        case .dependencyCycle(let detail): "cannot order the sync steps: \(detail)"
        }
    }
}
