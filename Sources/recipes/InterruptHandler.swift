import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into cancellation of a task, so an interrupted sync stops
/// between requests, keeps its checkpoints and reports "cancelled" instead of dying
/// mid-write. Install it before starting the task: a signal that arrives before the task
/// is attached cancels it as soon as it is.
final class InterruptHandler: @unchecked Sendable {
    private let lock = NSLock()
    private var sources: [DispatchSourceSignal] = []
    private var cancelTask: (@Sendable () -> Void)?
    private var interrupted = false
    private var stopped = false
    /// How long a cancelled sync may take to wind down before the process exits anyway.
    private let deadline: DispatchTimeInterval = .seconds(5)

    /// Starts catching SIGINT and SIGTERM.
    init() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.interrupt() }
            source.resume()
            sources.append(source)
        }
    }

    /// Cancels `task` on the next signal (at once if one already came).
    func attach<T: Sendable>(_ task: Task<T, any Error>) {
        let already = lock.withLock { () -> Bool in
            cancelTask = { task.cancel() }
            return interrupted
        }
        if already { task.cancel() }
    }

    private func interrupt() {
        Terminal.note("recipes: stopping after the current request…")
        let cancel = lock.withLock { () -> (@Sendable () -> Void)? in
            interrupted = true
            return cancelTask
        }
        cancel?()
        // A step blocked below the cancellation points must not keep the process alive:
        // whatever was committed is durable and the next sync resumes from its checkpoint.
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { [weak self] in
            guard let self, !self.lock.withLock({ self.stopped }) else { return }
            Terminal.error("the sync did not stop in time; exiting now (nothing committed is lost, the next sync resumes)")
            exit(130)
        }
    }

    /// Gives the signals back their default behaviour.
    func stop() {
        lock.withLock { stopped = true }
        for source in sources { source.cancel() }
        sources = []
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
