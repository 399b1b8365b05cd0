import Synchronization

/// One step of a sync (pull, resolve conflicts, push, refresh): a named piece of async work
/// that runs only after every operation it depends on has succeeded.
///
/// Operations are reference types so dependencies can name them, and they record their own
/// outcome, which the queue reads when it builds a report.
public final class SyncOperation: Sendable {
    /// How an operation ended (or that it has not run).
    public enum State: Sendable, Equatable {
        /// Not run yet.
        case pending
        /// Running now.
        case running
        /// Finished without error.
        case succeeded
        /// Threw; the message names the cause.
        case failed(String)
        /// Not run, or stopped, because the queue was cancelled or a dependency did not succeed.
        case cancelled(String)
    }

    /// The step's name as shown in progress lines ("pull").
    public let name: String
    /// Operations that must succeed before this one runs.
    public let dependencies: [SyncOperation]
    private let work: @Sendable (SyncOperation) async throws -> Void
    private let outcome = Mutex<(state: State, error: (any Error)?)>((.pending, nil))

    /// Makes an operation that runs `work` (which receives the operation, to report progress).
    public init(_ name: String, dependsOn dependencies: [SyncOperation] = [],
                work: @escaping @Sendable (SyncOperation) async throws -> Void) {
        self.name = name
        self.dependencies = dependencies
        self.work = work
    }

    /// The current state.
    public var state: State { outcome.withLock { $0.state } }

    /// The error the operation failed with, if it failed.
    public var error: (any Error)? { outcome.withLock { $0.error } }

    func setState(_ state: State, error: (any Error)? = nil) {
        outcome.withLock {
            $0.state = state
            if let error { $0.error = error }
        }
    }

    func perform() async throws {
        try await work(self)
    }
}
