import Dispatch
package import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into cancellation of a task, so an interrupted sync stops
/// between requests, keeps its checkpoints and reports "cancelled" instead of dying
/// mid-write, and `list --watch` stops watching. Install it before starting the task: a
/// signal that arrives before the task is attached cancels it as soon as it is.
package final class InterruptHandler: Sendable {
    /// What the signal handlers and the command share.
    private struct State {
        var sources: [DispatchSourceSignal] = []
        var cancelTask: (@Sendable () -> Void)?
        var interrupted = false
        var stopped = false
        var received: Int32?
    }

    private let state = Mutex(State())
    /// How long a cancelled sync may take to wind down before the process exits anyway.
    private let deadline: DispatchTimeInterval
    /// The exit status when SIGTERM came (SIGINT is always 130).
    private let terminatedStatus: Int32
    /// The line printed on stderr when a signal comes (`nil`: none).
    private let notice: String?
    /// The line printed when the cancelled task has not stopped by the deadline.
    private let overdue: String
    /// Whether a signal came.
    package var wasInterrupted: Bool { state.withLock { $0.interrupted } }

    /// Starts catching SIGINT and SIGTERM, and returns only once both are being caught, so
    /// a signal sent right after the caller reports progress is never lost. `notice` is
    /// printed when a signal comes, `overdue` when the task then fails to stop within
    /// `deadline`: the process then exits with 130 (SIGINT) or `terminatedStatus` (SIGTERM).
    package init(notice: String? = "recipes: stopping after the current request…",
         overdue: String = "the sync was cancelled but did not stop in time; exiting now (nothing committed is lost, the next sync resumes)",
         deadline: DispatchTimeInterval = .seconds(5), terminatedStatus: Int32 = 130) {
        self.notice = notice
        self.overdue = overdue
        self.deadline = deadline
        self.terminatedStatus = terminatedStatus
        let registered = DispatchGroup()
        // The sources are made inside the lock, so they belong to the state from the start.
        state.withLock { state in
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [weak self] in self?.interrupt(number) }
                registered.enter()
                source.setRegistrationHandler { registered.leave() }
                source.resume()
                state.sources.append(source)
            }
        }
        // Registration happens asynchronously on dispatch's own thread; until it has, the
        // signal is ignored. Waiting here closes that window (bounded, should it never come).
        _ = registered.wait(timeout: .now() + .seconds(5))
    }

    /// Cancels `task` on the next signal (at once if one already came).
    package func attach<T: Sendable>(_ task: Task<T, any Error>) {
        let already = state.withLock { state in
            state.cancelTask = { task.cancel() }
            return state.interrupted
        }
        if already { task.cancel() }
    }

    /// The first signal caught (SIGINT or SIGTERM), if any.
    package var caughtSignal: Int32? { state.withLock { $0.received } }

    /// The exit status for an interruption: 130 after SIGINT, `terminatedStatus` after SIGTERM.
    package var exitStatus: Int32 { caughtSignal == SIGTERM ? terminatedStatus : 130 }

    private func interrupt(_ number: Int32) {
        if let notice { Terminal.note(notice) }
        let cancel = state.withLock { state in
            state.interrupted = true
            if state.received == nil { state.received = number }
            return state.cancelTask
        }
        let status = exitStatus
        // A step blocked below the cancellation points must not keep the process alive:
        // whatever was committed is durable and the next sync resumes from its checkpoint.
        // The timer is armed before cancelling, so even a cancellation that blocks cannot
        // keep the process from ending.
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { [weak self] in
            guard let self, !self.state.withLock({ $0.stopped }) else { return }
            Terminal.error(self.overdue)
            _exit(status)
        }
        if let cancel { DispatchQueue.global().async { cancel() } }
    }

    /// Gives the signals back their default behaviour.
    package func stop() {
        let sources = state.withLock { state in
            state.stopped = true
            defer { state.sources = [] }
            return state.sources
        }
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
