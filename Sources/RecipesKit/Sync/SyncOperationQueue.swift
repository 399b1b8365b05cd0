import Foundation

/// Runs sync operations one at a time in dependency order, as the original app's chained
/// operation queue did: an operation starts only when all its dependencies succeeded;
/// when one fails, everything depending on it is cancelled (with the reason) and the
/// operations that do not depend on it still run.
///
/// Cancelling the task that runs ``run()`` (or calling ``cancel()``) stops the running
/// operation at its next cancellation point and cancels the rest; each operation is
/// responsible for leaving its data consistent (replication checkpoints only durable
/// batches, so nothing is lost).
public final class SyncOperationQueue: @unchecked Sendable {
    /// Called when an operation starts and when it ends.
    public typealias Observer = @Sendable (SyncOperation) -> Void

    private let lock = NSLock()
    private var operations: [SyncOperation] = []
    private var cancelled = false
    private var runningTask: Task<Void, any Error>?
    private let observer: Observer?

    /// An empty queue; `observer` hears of every start and end.
    public init(observer: Observer? = nil) {
        self.observer = observer
    }

    /// Adds an operation (its dependencies must be added too, before or after).
    public func add(_ operation: SyncOperation) {
        lock.lock()
        operations.append(operation)
        lock.unlock()
    }

    /// The operations, in the order they were added.
    public var allOperations: [SyncOperation] {
        lock.lock()
        defer { lock.unlock() }
        return operations
    }

    /// Stops the running operation and cancels the ones not started.
    public func cancel() {
        lock.lock()
        cancelled = true
        let task = runningTask
        lock.unlock()
        task?.cancel()
    }

    /// Records the running task; returns whether the queue was cancelled meanwhile.
    private func setRunning(_ task: Task<Void, any Error>?) -> Bool {
        lock.withLock {
            runningTask = task
            return cancelled
        }
    }

    private var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    /// Runs every operation in dependency order and returns them with their final states.
    /// - Throws: ``SyncQueueError/dependencyCycle(_:)`` when dependencies form a cycle or
    ///   name an operation not in the queue (nothing runs then).
    @discardableResult
    public func run() async throws -> [SyncOperation] {
        let order = try Self.orderedByDependencies(allOperations)
        for operation in order {
            let blocked = operation.dependencies.first { $0.state != .succeeded }
            if isCancelled || Task.isCancelled {
                operation.setState(.cancelled("the sync was cancelled"))
                observer?(operation)
                continue
            }
            if let blocked {
                operation.setState(.cancelled("\(blocked.name) did not succeed"))
                observer?(operation)
                continue
            }
            operation.setState(.running)
            observer?(operation)
            let task = Task { try await operation.perform() }
            if setRunning(task) { task.cancel() }
            do {
                try await withTaskCancellationHandler {
                    try await task.value
                } onCancel: {
                    task.cancel()
                }
                operation.setState(.succeeded)
            } catch {
                if error is CancellationError || Task.isCancelled || isCancelled {
                    operation.setState(.cancelled("the sync was cancelled"), error: error)
                } else {
                    operation.setState(.failed(String(describing: error)), error: error)
                }
            }
            _ = setRunning(nil)
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
