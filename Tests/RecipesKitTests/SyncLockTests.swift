import Foundation
@testable import DocumentStore
import Testing
@testable import RecipesKit
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite("Sync lock")
struct SyncLockTests {
    private static let flockTool = "/usr/bin/flock"
    private static var hasFlockTool: Bool { FileManager.default.isExecutableFile(atPath: flockTool) }

    private func store(in directory: TemporaryDirectory) -> URL {
        directory.file("data/recipes.sqlite")
    }

    /// Expects `tryAcquire` to be refused and returns the holder pid it reported.
    private func refusedPID(_ storeURL: URL) -> Int32?? {
        do {
            let lock = try SyncLock.tryAcquire(forStore: storeURL)
            lock.release()
            return nil
        } catch {
            guard case .alreadyRunning(let file, let pid) = error else { return nil }
            #expect(file == SyncLock.lockFileURL(forStore: storeURL).path)
            return .some(pid)
        }
    }

    @Test("the lock file sits next to the store")
    func lockFilePath() {
        #expect(SyncLock.lockFileURL(forStore: URL(fileURLWithPath: "/var/db/recipes.sqlite")).path == "/var/db/recipes.sqlite.sync.lock")
    }

    @Test("a second open file description is refused with the holder's pid until release")
    func twoDescriptions() throws {
        let directory = try TemporaryDirectory()
        let storeURL = store(in: directory)
        let first = try SyncLock.tryAcquire(forStore: storeURL)
        #expect(first.isHeld)
        // Like the store files, the lock file is for its owner only.
        let attributes = try FileManager.default.attributesOfItem(atPath: SyncLock.lockFileURL(forStore: storeURL).path)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o600)
        #expect(refusedPID(storeURL) == .some(getpid()))
        do {
            _ = try SyncLock.tryAcquire(forStore: storeURL)
        } catch {
            #expect(error.description.hasPrefix("sync already running (pid \(getpid()))"))
        }
        first.release()
        #expect(!first.isHeld)
        first.release()
        let second = try SyncLock.tryAcquire(forStore: storeURL)
        #expect(second.isHeld)
    }

    @Test("dropping the last reference releases the lock")
    func releasedOnDeinit() throws {
        let directory = try TemporaryDirectory()
        let storeURL = store(in: directory)
        do {
            let held = try SyncLock.tryAcquire(forStore: storeURL)
            #expect(held.isHeld)
        }
        _ = try SyncLock.tryAcquire(forStore: storeURL)
    }

    @Test("locks of different stores are independent")
    func independentStores() throws {
        let directory = try TemporaryDirectory()
        let one = try SyncLock.tryAcquire(forStore: directory.file("one.sqlite"))
        let two = try SyncLock.tryAcquire(forStore: directory.file("two.sqlite"))
        #expect(one.isHeld && two.isHeld)
    }

    @Test("another process cannot take the lock we hold", .enabled(if: hasFlockTool))
    func childIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let storeURL = store(in: directory)
        let lockPath = SyncLock.lockFileURL(forStore: storeURL).path
        let held = try SyncLock.tryAcquire(forStore: storeURL)
        #expect(try await runFlock(["-n", lockPath, "true"]) == 1)
        held.release()
        #expect(try await runFlock(["-n", lockPath, "true"]) == 0)
    }

    @Test("a child process holding the lock is reported by pid, and its death frees the lock", .enabled(if: hasFlockTool))
    func childHoldsLock() async throws {
        let directory = try TemporaryDirectory()
        let storeURL = store(in: directory)
        let lockPath = SyncLock.lockFileURL(forStore: storeURL).path
        try FileManager.default.createDirectory(at: storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        let child = try await spawnHolder(lockPath: lockPath)

        try await waitUntilHeld(by: child.processIdentifier, storeURL: storeURL)
        #expect(refusedPID(storeURL) == .some(child.processIdentifier))

        try await child.stop(SIGKILL)
        let lock = try SyncLock.tryAcquire(forStore: storeURL)
        #expect(lock.isHeld)
        #expect(SyncLock.holderPID(lock.lockFileURL) == getpid())
    }

    @Test("a waiting acquire gets the lock once the child holding it exits", .enabled(if: hasFlockTool))
    func waitsForChild() async throws {
        let directory = try TemporaryDirectory()
        let storeURL = store(in: directory)
        let lockPath = SyncLock.lockFileURL(forStore: storeURL).path
        try FileManager.default.createDirectory(at: storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        let child = try await spawnHolder(lockPath: lockPath)
        try await waitUntilHeld(by: child.processIdentifier, storeURL: storeURL)

        let acquired = Flag()
        let waiter = Task {
            let lock = try await SyncLock.acquire(forStore: storeURL, pollInterval: .milliseconds(20))
            acquired.set()
            return lock
        }
        // A negative check: while the child holds the lock the waiter must not get it, within a
        // bounded window; then the child's exit is the event it waits for.
        try await observationWindow(.milliseconds(200))
        #expect(!acquired.isSet)
        #expect(child.isRunning)
        child.signal(SIGTERM)
        let lock = try await waiter.value
        #expect(lock.isHeld)
        try await child.wait()
    }

    @Test("a waiting acquire returns as soon as the holder in this process releases")
    func waitsInProcess() async throws {
        let directory = try TemporaryDirectory()
        let storeURL = store(in: directory)
        let first = try SyncLock.tryAcquire(forStore: storeURL)
        let acquired = Flag()
        let waiter = Task {
            let lock = try await SyncLock.acquire(forStore: storeURL, pollInterval: .milliseconds(10))
            acquired.set()
            return lock
        }
        // A negative check: while this process holds the lock the waiter must not get it,
        // within a bounded window; then the release is the event it waits for.
        try await observationWindow(.milliseconds(100))
        #expect(!acquired.isSet)
        #expect(refusedPID(storeURL) == .some(getpid()))
        first.release()
        let second = try await waiter.value
        #expect(second.isHeld)
    }

    @Test("a waiting acquire stops when its task is cancelled")
    func cancellation() async throws {
        let directory = try TemporaryDirectory()
        let storeURL = store(in: directory)
        let holder = try SyncLock.tryAcquire(forStore: storeURL)
        let acquired = Flag()
        let waiter = Task {
            let lock = try await SyncLock.acquire(forStore: storeURL, pollInterval: .milliseconds(10))
            acquired.set()
            return lock
        }
        // A negative check: the waiter does not get the held lock within a bounded window, so
        // the cancellation below finds it waiting.
        try await observationWindow(.milliseconds(50))
        #expect(!acquired.isSet)
        waiter.cancel()
        await #expect(throws: CancellationError.self) { _ = try await waiter.value }
        #expect(holder.isHeld)
    }

    @Test("a waiting acquire with a time limit gives up with a typed error")
    func timeout() async throws {
        let directory = try TemporaryDirectory()
        let storeURL = store(in: directory)
        let holder = try SyncLock.tryAcquire(forStore: storeURL)
        do {
            _ = try await SyncLock.acquire(forStore: storeURL, pollInterval: .milliseconds(10), timeout: .milliseconds(100))
            Issue.record("acquired a held lock")
        } catch let error as SyncLockError {
            guard case .timedOut(_, let pid, let seconds) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(pid == getpid())
            #expect(seconds >= 0.1)
        }
        #expect(holder.isHeld)
    }

    @Test("an unusable lock location is a typed error")
    func cannotOpen() throws {
        let directory = try TemporaryDirectory()
        try directory.write("file", "x")
        #expect {
            try SyncLock.tryAcquire(forStore: directory.file("file/store.sqlite"))
        } throws: { error in
            guard case SyncLockError.cannotOpen(let path, _) = error else { return false }
            return path == directory.file("file/store.sqlite.sync.lock").path
        }
    }

    // MARK: - Child processes

    private func runFlock(_ arguments: [String]) async throws -> Int32 {
        try await RunningProcess.start(URL(fileURLWithPath: Self.flockTool), arguments: arguments).finish().status
    }

    /// Starts `sh` that takes the lock with flock(1) on fd 9, writes its pid, then becomes
    /// `sleep` (same pid, fd 9 inherited) so the lock lives exactly as long as the process:
    /// until the test kills it (it ends by itself only after a day, if the test runner died).
    private func spawnHolder(lockPath: String) async throws -> ChildProcess {
        try await ChildProcess.start(
            "/bin/sh", ["-c", #"exec 9>>"$1"; \#(Self.flockTool) -x 9; echo $$ > "$1"; exec sleep 86400"#, "holder", lockPath])
    }

    private func waitUntilHeld(by pid: Int32, storeURL: URL) async throws {
        // A hang guard: a loaded machine running the whole suite can take long to start it.
        if await waitUntil(timeout: 90, interval: .milliseconds(20), { refusedPID(storeURL) == .some(pid) }) { return }
        Issue.record("the child process never took the lock")
        throw CancellationError()
    }
}
