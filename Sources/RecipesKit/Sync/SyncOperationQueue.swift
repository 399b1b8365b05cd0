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
    private var runningOutcome: Outcome?
    private let observer: Observer?
    private let gracePeriod: Duration

    /// An empty queue; `observer` hears of every start and end. A cancelled operation gets
    /// `gracePeriod` to stop by itself before the queue stops waiting for it.
    public init(gracePeriod: Duration = .seconds(2), observer: Observer? = nil) {
        self.gracePeriod = gracePeriod
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
        let (task, outcome) = lock.withLock { () -> (Task<Void, any Error>?, Outcome?) in
            cancelled = true
            return (runningTask, runningOutcome)
        }
        if let task, let outcome { Self.stop(task, outcome, grace: gracePeriod) }
    }

    /// Records the running task; returns whether the queue was cancelled meanwhile.
    private func setRunning(_ task: Task<Void, any Error>?, _ outcome: Outcome?) -> Bool {
        lock.withLock {
            runningTask = task
            runningOutcome = outcome
            return cancelled
        }
    }

    /// Cancels a running operation; if it has not stopped after `grace`, the queue stops
    /// waiting for it (it keeps running, cancelled, until it notices or the process ends).
    private static func stop(_ task: Task<Void, any Error>, _ outcome: Outcome, grace: Duration) {
        task.cancel()
        Task {
            try? await Task.sleep(for: grace)
            outcome.resolve(.failure(CancellationError()))
        }
    }

    /// The result of the running operation, delivered once, by the operation or by a cancel.
    private final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<Void, any Error>?
        private var waiter: CheckedContinuation<Result<Void, any Error>, Never>?

        func resolve(_ value: Result<Void, any Error>) {
            let resume: CheckedContinuation<Result<Void, any Error>, Never>? = lock.withLock {
                guard result == nil else { return nil }
                result = value
                defer { waiter = nil }
                return waiter
            }
            resume?.resume(returning: value)
        }

        func value() async -> Result<Void, any Error> {
            await withCheckedContinuation { continuation in
                let ready: Result<Void, any Error>? = lock.withLock {
                    if let result { return result }
                    waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
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
            let outcome = Outcome()
            Task {
                do {
                    try await task.value
                    outcome.resolve(.success(()))
                } catch {
                    outcome.resolve(.failure(error))
                }
            }
            if setRunning(task, outcome) { Self.stop(task, outcome, grace: gracePeriod) }
            let result = await withTaskCancellationHandler {
                await outcome.value()
            } onCancel: { [gracePeriod] in
                Self.stop(task, outcome, grace: gracePeriod)
            }
            switch result {
            case .success:
                operation.setState(.succeeded)
            case .failure(let error):
                if error is CancellationError || Task.isCancelled || isCancelled {
                    operation.setState(.cancelled("the sync was cancelled"), error: error)
                } else {
                    operation.setState(.failed(String(describing: error)), error: error)
                }
            }
            _ = setRunning(nil, nil)
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
