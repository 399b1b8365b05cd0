import Synchronization

/// The add forms already saved, by their one-time ID, so that a form posted twice (a double
/// click, a reload after a slow answer) leads to the recipe it made instead of a second one.
final class SubmittedForms: Sendable {
    /// IDs kept at most; the oldest go first.
    static let capacity = 4096
    private let state = Mutex<(results: [String: String], order: [String])>(([:], []))

    /// The recipe ID that the form `submission` made, if it was saved.
    func result(of submission: String) -> String? {
        state.withLock { $0.results[submission] }
    }

    /// Records that form `submission` made recipe `id`.
    func record(_ submission: String, result id: String) {
        state.withLock { state in
            state.results[submission] = id
            state.order.append(submission)
            if state.order.count > Self.capacity {
                state.results[state.order.removeFirst()] = nil
            }
        }
    }
}
