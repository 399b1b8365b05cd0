import Synchronization

/// The request-body bytes the whole server may hold at once, shared by every request.
///
/// A request whose length is declared reserves it all before reading a byte, waiting its
/// turn (first come, first served) while others hold the budget; one that streams without a
/// length reserves as its chunks arrive and never waits, because waiting while holding part
/// of the budget could deadlock with others doing the same.
final class RequestBodyBudget: Sendable {
    /// The budget in bytes.
    let total: Int

    private struct Waiter {
        var id: UInt64
        var bytes: Int
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var available: Int
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    init(total: Int) {
        self.total = total
        self.state = Mutex(State(available: total))
    }

    /// The bytes not reserved right now.
    var available: Int { state.withLock { $0.available } }

    /// Reserves `bytes` if they are free now and nobody is waiting ahead; `false` otherwise.
    func tryReserve(_ bytes: Int) -> Bool {
        state.withLock { state in
            guard state.waiters.isEmpty, state.available >= bytes else { return false }
            state.available -= bytes
            return true
        }
    }

    /// Reserves `bytes` if they are free now, ahead of anyone waiting: for a request already
    /// admitted that needs more to finish (parsing its body), so it can finish and give
    /// everything back rather than stall behind requests that wait for what it holds.
    func reserveAhead(_ bytes: Int) -> Bool {
        state.withLock { state in
            guard state.available >= bytes else { return false }
            state.available -= bytes
            return true
        }
    }

    /// Reserves `bytes`, waiting up to `timeout` for them; `false` when the wait ran out, the
    /// task was cancelled, or `bytes` exceeds the whole budget.
    func reserve(_ bytes: Int, timeout: Duration) async -> Bool {
        guard bytes <= total else { return false }
        if tryReserve(bytes) { return true }
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let grantedNow = state.withLock { state -> Bool in
                    if state.waiters.isEmpty, state.available >= bytes {
                        state.available -= bytes
                        return true
                    }
                    state.waiters.append(Waiter(id: id, bytes: bytes, continuation: continuation))
                    return false
                }
                if grantedNow {
                    continuation.resume(returning: true)
                    return
                }
                if Task.isCancelled { abandon(id) }
                Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    self?.abandon(id)
                }
            }
        } onCancel: {
            abandon(id)
        }
    }

    /// Gives `bytes` back and wakes the waiters they make room for, in order.
    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        let woken = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.available += bytes
            return Self.grant(&state)
        }
        for continuation in woken { continuation.resume(returning: true) }
    }

    /// Stops waiting for `id` (timed out or cancelled): it gets `false`, and those behind it
    /// may now fit.
    private func abandon(_ id: UInt64) {
        let (abandoned, woken) = state.withLock { state -> (CheckedContinuation<Bool, Never>?, [CheckedContinuation<Bool, Never>]) in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return (nil, []) }
            let waiter = state.waiters.remove(at: index)
            return (waiter.continuation, Self.grant(&state))
        }
        abandoned?.resume(returning: false)
        for continuation in woken { continuation.resume(returning: true) }
    }

    /// Hands the available bytes to waiters from the front while the first one fits.
    private static func grant(_ state: inout State) -> [CheckedContinuation<Bool, Never>] {
        var woken = [CheckedContinuation<Bool, Never>]()
        while let first = state.waiters.first, first.bytes <= state.available {
            state.available -= first.bytes
            woken.append(first.continuation)
            state.waiters.removeFirst()
        }
        return woken
    }
}
