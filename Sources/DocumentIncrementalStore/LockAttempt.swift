/// The outcome of trying to run work under a ``DocumentIncrementalStore``'s lock without
/// waiting for it: the work's result, or `busy` when another operation held the lock.
enum LockAttempt<T: Sendable>: Sendable {
    /// The work ran and gave this.
    case done(T)
    /// Another operation held the lock; nothing ran.
    case busy
}
