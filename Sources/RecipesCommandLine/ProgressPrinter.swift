import Foundation
package import RecipesKit
import Synchronization

/// Shows sync progress on stderr: a line per step, and a redrawn `changes processed /
/// total` counter while a step runs when stderr is a terminal.
package final class ProgressPrinter: Sendable {
    /// A printer that has printed nothing yet.
    package init() {}

    private let interactive = Terminal.stderrIsTerminal
    /// Whether a counter line is drawn (and must be cleared before the next line); the lock
    /// also keeps lines from two steps' tasks whole.
    private let drawn = Mutex(false)

    /// A step started or ended.
    package func step(_ operation: SyncOperation) {
        drawn.withLock { drawn in
            Self.clearLine(&drawn)
            switch operation.state {
            case .running: Self.write("\(operation.name)…\n")
            case .succeeded: Self.write("\(operation.name): done\n")
            case .failed(let message): Self.write("\(operation.name): failed: \(message)\n")
            case .cancelled(let reason): Self.write("\(operation.name): skipped (\(reason))\n")
            case .pending: break
            }
        }
    }

    /// The running step moved on.
    package func progress(_ event: SyncProgressEvent) {
        guard interactive else { return }
        drawn.withLock { drawn in
            let total = event.total.map { " / \($0)" } ?? ""
            Self.write("\r\(event.step): \(event.processed)\(total) changes")
            drawn = true
        }
    }

    /// Ends a drawn counter line.
    package func finish() {
        drawn.withLock { Self.clearLine(&$0) }
    }

    private static func clearLine(_ drawn: inout Bool) {
        if drawn {
            write("\r\u{1B}[K")
            drawn = false
        }
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
