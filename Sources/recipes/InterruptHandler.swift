import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into cancellation of a task while it runs, so an interrupted
/// sync stops between requests, keeps its checkpoints and reports "cancelled" instead of
/// dying mid-write.
final class InterruptHandler: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []

    /// Cancels `task` when the process receives SIGINT or SIGTERM, until ``stop()``.
    init<T>(cancelling task: Task<T, any Error>) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                Terminal.note("recipes: stopping after the current request…")
                task.cancel()
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Gives the signals back their default behaviour.
    func stop() {
        for source in sources { source.cancel() }
        sources = []
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
