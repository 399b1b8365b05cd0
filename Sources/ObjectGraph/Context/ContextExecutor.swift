import Dispatch

/// A context's serial queue as a Swift concurrency executor: jobs of an actor using it run on
/// the queue, so the actor's code is on the context's queue and uses its objects directly.
final class ContextExecutor: SerialExecutor {
    let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
