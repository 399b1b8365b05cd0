internal import Synchronization

/// How many browsers the test process runs at once. Each test that drives a browser starts its
/// own Chromium, a few processes and a second or two of CPU on a small machine: a few at a
/// time keep both cores busy; all at once only make each slower. `Browser.launch()` takes a
/// slot before it starts anything and `quit()` gives it back, so suites need not run their
/// browser tests one by one (`.serialized`) to stay within it.
final class BrowserSlots: Sendable {
    /// The one limit of this process.
    static let shared = BrowserSlots(count: 3)

    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    private init(count: Int) {
        state = Mutex(State(free: count))
    }

    /// Waits until a slot is free and takes it.
    func take() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives a slot back, to the longest waiter if there is one.
    func give() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
