import Foundation
import Synchronization

/// Tells on stderr how far a long import has come: nothing for an import that ends within
/// a second, then at most one line a second, `recipes: importing: 36000 of 180008 objects`.
final class ImportProgress: Sendable {
    private let start = ContinuousClock.now
    private let lastShown = Mutex<ContinuousClock.Instant?>(nil)

    /// A batch was saved: `done` of `total` objects.
    func report(done: Int, total: Int) {
        let now = ContinuousClock.now
        let due = lastShown.withLock { last -> Bool in
            guard now - start >= .seconds(1), last.map({ now - $0 >= .seconds(1) }) ?? true else { return false }
            last = now
            return true
        }
        if due { Terminal.note("recipes: importing: \(done) of \(total) objects") }
    }
}
