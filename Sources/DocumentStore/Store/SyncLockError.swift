/// Why the sync lock of a store could not be taken.
public enum SyncLockError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another process (or another part of this one) is syncing this store; `pid` is the
    /// holder's process ID when it has recorded one.
    case alreadyRunning(lockFile: String, pid: Int32?)
    /// A waiting acquire gave up after its time limit while another sync kept the lock.
    case timedOut(lockFile: String, pid: Int32?, seconds: Double)
    /// The lock file cannot be created or opened (missing folder, permissions, read-only disk).
    case cannotOpen(lockFile: String, reason: String)
    /// The operating system refused the lock itself.
    case lockFailed(lockFile: String, reason: String)

    /// One line naming the lock file, the holder when known, and what to do.
    public var description: String {
        switch self {
        case .alreadyRunning(let file, let pid):
            "sync already running (\(Self.holder(pid))); wait for it to finish or join it (lock \(file))"
        case .timedOut(let file, let pid, let seconds):
            "gave up after \(seconds) s waiting for the sync already running (\(Self.holder(pid))) (lock \(file))"
        case .cannotOpen(let file, let reason):
            "cannot open the sync lock \(file): \(reason); check that its folder exists and is writable"
        case .lockFailed(let file, let reason):
            "cannot lock \(file): \(reason)"
        }
    }

    private static func holder(_ pid: Int32?) -> String {
        pid.map { "pid \($0)" } ?? "pid unknown"
    }
}
