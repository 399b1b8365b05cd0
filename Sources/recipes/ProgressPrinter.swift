import Foundation
import RecipesKit

/// Shows sync progress on stderr: a line per step, and a redrawn `changes processed /
/// total` counter while a step runs when stderr is a terminal.
final class ProgressPrinter: @unchecked Sendable {
    private let lock = NSLock()
    private let interactive = Terminal.stderrIsTerminal
    private var drawn = false

    /// A step started or ended.
    func step(_ operation: SyncOperation) {
        lock.withLock {
            clearLine()
            switch operation.state {
            case .running: write("\(operation.name)…\n")
            case .succeeded: write("\(operation.name): done\n")
            case .failed(let message): write("\(operation.name): failed: \(message)\n")
            case .cancelled(let reason): write("\(operation.name): skipped (\(reason))\n")
            case .pending: break
            }
        }
    }

    /// The running step moved on.
    func progress(_ event: SyncProgressEvent) {
        guard interactive else { return }
        lock.withLock {
            let total = event.total.map { " / \($0)" } ?? ""
            write("\r\(event.step): \(event.processed)\(total) changes")
            drawn = true
        }
    }

    /// Ends a drawn counter line.
    func finish() {
        lock.withLock { clearLine() }
    }

    private func clearLine() {
        if drawn {
            write("\r\u{1B}[K")
            drawn = false
        }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
