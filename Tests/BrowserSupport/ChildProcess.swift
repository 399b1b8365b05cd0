internal import Foundation
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A child process started with `posix_spawn`, in a process group of its own so it and
/// everything it starts (chromedriver and its Chromium) can be signalled together.
///
/// Foundation's `Process` is not used because it cannot put the child in a new process
/// group and keeps its own reaping machinery; here the pid is all the state there is,
/// which keeps the type trivially `Sendable`.
struct ChildProcess: Sendable {
    /// The child's process id, which is also its process-group id.
    let pid: pid_t

    /// Starts `executable` with `arguments`, stdin from /dev/null and stdout and stderr
    /// appended to `outputPath`. Descriptors other than 0–2 are closed in the child, so it
    /// does not hold the test runner's pipes open.
    static func spawn(_ executable: String, _ arguments: [String], outputPath: String) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        for fd in openDescriptors() where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD] { sigaddset(&defaultSignals, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard status == 0 else {
            throw WebDriverError(
                code: "driver startup failure", message: "cannot start \(executable): \(String(cString: strerror(status)))",
                command: "spawn \(executable)")
        }
        return ChildProcess(pid: pid)
    }

    /// Whether the child still runs. Reaps it once it has exited, so it leaves no zombie.
    func isRunning() -> Bool {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        return result == 0
    }

    /// Sends `signal` to the child's whole process group.
    func signalGroup(_ signal: Int32) {
        kill(-pid, signal)
    }

    /// Polls every 20 ms until the child has exited or `timeout` passed; true when it exited.
    func waitForExit(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning() {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// Kills the group with SIGKILL and reaps the child without awaiting; for `deinit`
    /// and failed launches, where nothing can be awaited.
    func killNow() {
        signalGroup(SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    private static func openDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }
    }
}
