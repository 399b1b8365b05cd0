import Dispatch
import Foundation
import Synchronization

/// The wake-up call of one ``LiveFetch`` iteration: the coordinator's change listener
/// raises it after a save or a reported store change, and the iterator waits on it for at
/// most one poll interval. A raise with nobody waiting is kept for the next wait.
final class LiveFetchSignal: Sendable {
    private struct State {
        var raised = false
        var waiter: CheckedContinuation<Bool, Never>?
        var waitNumber = 0
    }

    private let state = Mutex(State())
    private let registration = Mutex<(coordinator: PersistentStoreCoordinator, token: UUID)?>(nil)

    /// Raises the signal after every save and reported change on `coordinator`, until this
    /// signal is released.
    func listen(to coordinator: PersistentStoreCoordinator) {
        let token = coordinator.addChangeListener { [weak self] in self?.raise() }
        registration.withLock { $0 = (coordinator, token) }
    }

    deinit {
        if let (coordinator, token) = registration.withLock({ $0 }) { coordinator.removeChangeListener(token) }
    }

    /// Wakes the waiter (with `true`), or marks the signal raised for the next wait.
    func raise() {
        let waiter = state.withLock { s -> CheckedContinuation<Bool, Never>? in
            guard let w = s.waiter else {
                s.raised = true
                return nil
            }
            s.waiter = nil
            return w
        }
        waiter?.resume(returning: true)
    }

    /// Forgets a raise that came before the caller looked at the store itself.
    func lower() {
        state.withLock { $0.raised = false }
    }

    /// Waits until the signal is raised (`true`) or `timeout` passes or the task is
    /// cancelled (`false`). Only one task waits at a time.
    func wait(timeout: Duration) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let number = state.withLock { s -> Int? in
                    if s.raised {
                        s.raised = false
                        return nil
                    }
                    s.waitNumber += 1
                    s.waiter = continuation
                    return s.waitNumber
                }
                guard let number else {
                    continuation.resume(returning: true)
                    return
                }
                let (seconds, attoseconds) = timeout.components
                let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
                    expire(number)
                }
            }
        } onCancel: {
            expire(nil)
        }
    }

    /// Ends wait number `number` (any wait when `nil`) with `false`, unless it already ended.
    private func expire(_ number: Int?) {
        let waiter = state.withLock { s -> CheckedContinuation<Bool, Never>? in
            guard let w = s.waiter, number == nil || number == s.waitNumber else { return nil }
            s.waiter = nil
            return w
        }
        waiter?.resume(returning: false)
    }
}
