public import DocumentIncrementalStore
import DocumentStore
public import Replication
import Synchronization

/// The events of a container's live sync (`ObjectContainer.liveSync(with:options:live:hooks:)`),
/// as an `AsyncSequence` whose failures are typed.
///
/// Each iteration runs a live sync of its own, in a task of its own, holding the store's
/// sync lock from its start until it has really stopped. The events are the replication
/// engine's (`LiveSyncEvent`): `connected`, `pulled`, `pushed`, `caughtUp`, `offline`, each
/// once per change of state. The iteration ends in one of two ways:
///
/// - cancelled (the iterating task cancelled, or the loop left): the events still delivered
///   while it winds down, then `LiveSyncEvent.stopped(_:)` with `LiveSyncStop.cancelled`,
///   then the end; the lock is released before that last event;
/// - failed: `ObjectContainerError` is thrown in place of a `stopped` event
///   (`syncAlreadyRunning` before any event when another sync holds the lock,
///   `syncStepFailed` naming the step for an error retrying cannot fix), the lock released.
public struct LiveContainerSync: AsyncSequence, Sendable {
    /// A change of the live sync's state.
    public typealias Element = LiveSyncEvent
    /// Why the live sync could not start or go on.
    public typealias Failure = ObjectContainerError

    /// Takes the store's sync lock (`nil`: an in-memory store, which has no file).
    let lock: @Sendable () async throws(ObjectContainerError) -> SyncLock?
    /// A live sync of the store with these hooks.
    let run: @Sendable (LiveSyncHooks) -> LiveSyncEvents
    /// The caller's hooks.
    let hooks: LiveSyncHooks

    /// Starts a live sync: takes the lock, then runs until cancelled or failed.
    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncStream.makeStream(of: Result<LiveSyncEvent, ObjectContainerError>.self)
        let failures = StepFailures()
        var hooks = self.hooks
        let told = hooks.stepEnded
        hooks.stepEnded = { report in
            failures.note(report)
            told?(report)
        }
        let events = run(hooks)
        let lock = self.lock
        let task = Task {
            defer { continuation.finish() }
            let held: SyncLock?
            do throws(ObjectContainerError) {
                held = try await lock()
            } catch {
                if case .syncStepFailed(_, let cause) = error, cause is CancellationError {
                    continuation.yield(.success(.stopped(.cancelled)))
                } else {
                    continuation.yield(.failure(error))
                }
                return
            }
            defer { held?.release() }
            for await event in events {
                guard case .stopped(let stop) = event else {
                    continuation.yield(.success(event))
                    continue
                }
                // It has really stopped: the lock goes before the caller hears of it.
                held?.release()
                switch stop {
                case .cancelled: continuation.yield(.success(event))
                case .failed(let error): continuation.yield(.failure(failures.error(for: error)))
                }
            }
        }
        return Iterator(core: IteratorCore(events: stream, task: task))
    }

    /// Delivers the events in order. Cancelling the iterating task stops the live sync; the
    /// events it reports while stopping, up to `LiveSyncEvent.stopped(_:)`, are still
    /// delivered.
    public struct Iterator: AsyncIteratorProtocol {
        /// Why the live sync could not start or go on.
        public typealias Failure = ObjectContainerError

        let core: IteratorCore

        /// The next event; `nil` once the live sync has ended.
        /// - Throws: `ObjectContainerError` when it could not start or go on.
        public mutating func next() async throws(ObjectContainerError) -> LiveSyncEvent? {
            try await next(isolation: nil)
        }

        /// The next event, awaited from `actor`; `nil` once the live sync has ended.
        /// - Throws: `ObjectContainerError` when it could not start or go on.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(ObjectContainerError) -> LiveSyncEvent? {
            switch await core.events.nextOutlivingCancellation(stopping: core.task) {
            case nil: return nil
            case .success(let event)?: return event
            case .failure(let error)?: throw error
            }
        }
    }

    /// Owns the running live sync: dropping the iterator cancels it (and its lock is released
    /// once it has stopped).
    final class IteratorCore: Sendable {
        let events: AsyncStream<Result<LiveSyncEvent, ObjectContainerError>>
        let task: Task<Void, Never>

        init(events: AsyncStream<Result<LiveSyncEvent, ObjectContainerError>>, task: Task<Void, Never>) {
            self.events = events
            self.task = task
        }

        deinit { task.cancel() }
    }
}

/// The last step of a live sync that failed, to name it (and its own error) when the live
/// sync stops on a failure.
private final class StepFailures: Sendable {
    private let last = Mutex<(step: LiveSyncStep, error: any Error)?>(nil)

    /// Keeps the step's failure, or forgets the last one when the step succeeded.
    func note(_ report: LiveSyncStepReport) {
        last.withLock { $0 = report.error.map { (report.step, $0) } }
    }

    /// The typed error of a live sync stopped by `error`: the failed step and what it threw,
    /// or, when no step failed, the wait for changes that did.
    func error(for error: ReplicationError) -> ObjectContainerError {
        if let (step, cause) = last.withLock({ $0 }) {
            return .syncStepFailed(step: step.rawValue, cause: cause)
        }
        return .syncStepFailed(step: "wait", cause: error)
    }
}
