public import Foundation
import Synchronization

// Tests wait for events, never for a fixed time. These helpers are the only places in the
// tests that let time pass, and each says why it does:
//
// - `waitUntil` polls an observable condition until it holds, bounded by a deadline (a wait for
//   an event that has no signal to await directly);
// - `withTimeout` is a hang guard around a body that should end by itself;
// - `simulatedDelay` is a delay that is part of the scenario (a slow peer, a client that holds
//   back its last byte, a kill at a random moment);
// - `observationWindow` is the bounded window of a negative check ("X does not happen while Y
//   holds"), always followed by an assertion about what did not happen.

/// Polls `condition` (every `interval`) until it holds or `timeout` seconds pass; whether it
/// held. A wait for an event with a bound, not a fixed sleep: it returns as soon as the
/// condition holds.
@discardableResult
public func waitUntil(
    isolation: isolated (any Actor)? = #isolation,
    timeout: TimeInterval,
    interval: Duration = .milliseconds(10),
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    while try await !condition() {
        guard ContinuousClock.now < deadline else { return false }
        do { try await Task.sleep(for: interval) } catch { return try await condition() }
    }
    return true
}

/// Thrown by `withTimeout` when its body did not finish in time.
public struct TimeoutError: Error, CustomStringConvertible {
    /// The time allowed, in seconds.
    public var seconds: Double
    public var description: String { "timed out after \(seconds) s" }
}

/// Runs `body`, throwing `TimeoutError` (and cancelling it) instead of hanging when it takes
/// longer than `seconds`: a hang guard, not a wait.
public func withTimeout<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            return nil
        }
        let first = try await group.next()!
        group.cancelAll()
        guard let value = first else { throw TimeoutError(seconds: seconds) }
        return value
    }
}

/// A delay that is part of the scenario under test, not synchronisation: a peer that is slow
/// on purpose, a client that holds back its last byte, a process killed at a random moment,
/// an operation that runs until it is cancelled. Throws `CancellationError` when cancelled.
public func simulatedDelay(_ duration: Duration) async throws {
    try await Task.sleep(for: duration)
}

/// The bounded window of a negative check: lets `duration` pass so that something that must
/// not happen (a lock acquired while held, a wait ending on its own) would have had the time to
/// happen. Always follow it with the assertion that it did not.
public func observationWindow(_ duration: Duration) async throws {
    try await Task.sleep(for: duration)
}

/// A flag one task sets and others read, for negative checks ("the waiter has not gone on
/// yet") and for ordering assertions.
public final class Flag: Sendable {
    private let state = Mutex(false)

    /// An unset flag.
    public init() {}

    /// Sets the flag.
    public func set() { state.withLock { $0 = true } }

    /// Whether the flag has been set.
    public var isSet: Bool { state.withLock { $0 } }
}

/// An event one task announces and others await: a wait with no deadline of its own, so a
/// loaded machine that is slow to schedule the announcing task does not fail the test (wrap the
/// await in `withTimeout` as a hang guard).
public final class Signal: Sendable {
    private struct State {
        var fired = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// A signal not yet fired.
    public init() {}

    /// Fires the signal: every waiter, present and future, goes on.
    public func fire() {
        let waiters = state.withLock { state in
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether the signal has fired.
    public var hasFired: Bool { state.withLock { $0.fired } }

    /// Returns once the signal has fired.
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let fired = state.withLock { state in
                if !state.fired { state.waiters.append(continuation) }
                return state.fired
            }
            if fired { continuation.resume() }
        }
    }
}
