import Synchronization

/// A result handed over once from callback code (a URL session completion, a server's
/// "listening" callback) to the one task awaiting it.
///
/// It may be resumed from several places (completion, cancellation, failure): only the
/// first outcome counts, the others are ignored, and an outcome that arrives before the task
/// starts waiting is kept for it. So no path can resume a continuation twice or leave it
/// hanging.
public final class OneShotContinuation<Value: Sendable>: Sendable {
    private enum State {
        /// Nothing has happened yet.
        case idle
        /// The task waits.
        case waiting(CheckedContinuation<Value, any Error>)
        /// The outcome came before the task waited.
        case early(Result<Value, any Error>)
        /// The outcome was delivered.
        case finished
    }

    private let state = Mutex<State>(.idle)

    /// Makes a handover with no outcome yet.
    public init() {}

    /// Delivers `result` to the waiting task (or keeps it for it), unless an outcome was
    /// delivered before.
    public func resume(with result: Result<Value, any Error>) {
        let waiter: CheckedContinuation<Value, any Error>? = state.withLock { state in
            switch state {
            case .idle:
                state = .early(result)
                return nil
            case .waiting(let continuation):
                state = .finished
                return continuation
            case .early, .finished:
                return nil
            }
        }
        waiter?.resume(with: result)
    }

    /// Delivers `value` (see ``resume(with:)``).
    public func resume(returning value: Value) {
        resume(with: .success(value))
    }

    /// Delivers `error` (see ``resume(with:)``).
    public func resume(throwing error: any Error) {
        resume(with: .failure(error))
    }

    /// Waits for the outcome and returns it or throws it. Only one task may wait.
    public func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let early: Result<Value, any Error>? = state.withLock { state in
                switch state {
                case .idle:
                    state = .waiting(continuation)
                    return nil
                case .early(let result):
                    state = .finished
                    return result
                case .waiting, .finished:
                    preconditionFailure("OneShotContinuation awaited twice")
                }
            }
            if let early { continuation.resume(with: early) }
        }
    }
}
