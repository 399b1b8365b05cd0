#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation
public import Logging
import Synchronization

/// An exclusive, inter-process lock that lets only one sync of a store run at a time,
/// whichever process starts it.
///
/// It is a `flock(2)` lock on the file `<store>.sync.lock` next to the store. Such locks
/// belong to an open file description, so they also exclude a second opener in the same
/// process; the kernel drops them when the holder closes the file or dies, so a crashed
/// sync never leaves the store locked. The holder writes its process ID into the file so a
/// refused caller can say who holds it. The file itself is never deleted (deleting a lock
/// file that someone may be opening would let two holders in).
///
/// The lock is released by ``release()`` or when the value is deallocated.
public final class SyncLock: Sendable {
    /// The store this lock protects.
    public let storeURL: URL
    /// The lock file (`<store>.sync.lock`).
    public let lockFileURL: URL

    /// The lock file's descriptor; -1 once released.
    private let descriptor: Mutex<Int32>

    private init(storeURL: URL, lockFileURL: URL, descriptor: Int32) {
        self.storeURL = storeURL
        self.lockFileURL = lockFileURL
        self.descriptor = Mutex(descriptor)
    }

    deinit {
        release()
    }

    /// The lock file of the store at `storeURL`: its path with `.sync.lock` appended.
    public static func lockFileURL(forStore storeURL: URL) -> URL {
        URL(fileURLWithPath: storeURL.path + ".sync.lock")
    }

    /// Takes the lock now or throws ``SyncLockError/alreadyRunning(lockFile:pid:)``.
    public static func tryAcquire(forStore storeURL: URL) throws(SyncLockError) -> SyncLock {
        let lockFile = lockFileURL(forStore: storeURL)
        let descriptor = try openLockFile(lockFile)
        do throws(SyncLockError) {
            guard try lockWithoutWaiting(descriptor, lockFile: lockFile) else {
                throw SyncLockError.alreadyRunning(lockFile: lockFile.path, pid: holderPID(lockFile))
            }
        } catch {
            close(descriptor)
            throw error
        }
        return makeHeldLock(storeURL: storeURL, lockFile: lockFile, descriptor: descriptor)
    }

    /// Waits for the lock, checking every `pollInterval`, and returns once it is held.
    ///
    /// Throws `CancellationError` as soon as the calling task is cancelled, and
    /// ``SyncLockError/timedOut(lockFile:pid:seconds:)`` after `timeout` (if given).
    public static func acquire(
        forStore storeURL: URL,
        pollInterval: Duration = .milliseconds(50),
        timeout: Duration? = nil,
        logger: Logger? = nil
    ) async throws -> SyncLock {
        let lockFile = lockFileURL(forStore: storeURL)
        let descriptor = try openLockFile(lockFile)
        let clock = ContinuousClock()
        let start = clock.now
        var announced = false
        do {
            while true {
                try Task.checkCancellation()
                if try lockWithoutWaiting(descriptor, lockFile: lockFile) {
                    return makeHeldLock(storeURL: storeURL, lockFile: lockFile, descriptor: descriptor)
                }
                let waited = clock.now - start
                if let timeout, waited >= timeout {
                    let seconds = Double(waited.components.seconds) + Double(waited.components.attoseconds) / 1e18
                    throw SyncLockError.timedOut(lockFile: lockFile.path, pid: holderPID(lockFile), seconds: (seconds * 10).rounded() / 10)
                }
                if !announced {
                    announced = true
                    logger?.info("waiting for the sync already running", metadata: [
                        "lock": "\(lockFile.path)", "pid": "\(holderPID(lockFile).map(String.init) ?? "unknown")",
                    ])
                }
                try await Task.sleep(for: pollInterval)
            }
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Whether this value still holds the lock.
    public var isHeld: Bool {
        descriptor.withLock { $0 >= 0 }
    }

    /// Gives the lock up; calling it again does nothing.
    public func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            // Clear our pid before unlocking so a later reader never blames us.
            _ = ftruncate(descriptor, 0)
            // Unlock explicitly: a child forked by another thread of this process may hold a
            // duplicate of the descriptor until it execs, and closing ours alone would leave
            // the lock held by that duplicate.
            _ = flock(descriptor, LOCK_UN)
            close(descriptor)
            descriptor = -1
        }
    }

    // MARK: - System calls

    private static func openLockFile(_ lockFile: URL) throws(SyncLockError) -> Int32 {
        let folder = lockFile.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .cannotOpen(lockFile: lockFile.path, reason: "cannot create \(folder.path): \(error.localizedDescription)")
        }
        let descriptor = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .cannotOpen(lockFile: lockFile.path, reason: String(cString: strerror(errno)))
        }
        return descriptor
    }

    /// `true` if the lock was taken, `false` if someone else holds it.
    private static func lockWithoutWaiting(_ descriptor: Int32, lockFile: URL) throws(SyncLockError) -> Bool {
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
            let code = errno
            if code == EINTR { continue }
            if code == EWOULDBLOCK || code == EAGAIN { return false }
            throw .lockFailed(lockFile: lockFile.path, reason: String(cString: strerror(code)))
        }
    }

    private static func makeHeldLock(storeURL: URL, lockFile: URL, descriptor: Int32) -> SyncLock {
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return SyncLock(storeURL: storeURL, lockFileURL: lockFile, descriptor: descriptor)
    }

    /// The process ID the current holder recorded, if any.
    static func holderPID(_ lockFile: URL) -> Int32? {
        guard let text = try? String(contentsOf: lockFile, encoding: .utf8) else { return nil }
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
