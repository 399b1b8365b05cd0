import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program as a fresh child process and measures what a user waits for: wall time
/// from spawn to exit, and the child's peak resident set size (from `wait4`'s rusage).
enum ChildProcess {
    /// What one run cost.
    struct Outcome {
        var milliseconds: Double
        var peakRSSMegabytes: Double
    }

    /// A run that did not exit 0.
    struct Failure: Error, CustomStringConvertible {
        var command: String
        var status: Int32
        var description: String { "`\(command)` exited with status \(status)" }
    }

    /// Runs `executable` with `arguments`, stdout and stderr discarded, samples disabled.
    static func run(_ executable: String, _ arguments: [String]) throws -> Outcome {
        let start = ContinuousClock.now
        let pid = try spawn(executable, arguments)
        let (status, usage) = try wait(pid, command: ([executable] + arguments).joined(separator: " "))
        let exitCode = (status >> 8) & 0xff
        guard status & 0x7f == 0, exitCode == 0 else { throw Failure(command: ([executable] + arguments).joined(separator: " "), status: status) }
        let milliseconds = SyncBenchmark.seconds(since: start) * 1000
        return Outcome(milliseconds: milliseconds, peakRSSMegabytes: Double(usage.ru_maxrss) / 1024)
    }

    /// Starts `executable` with `arguments` (stdout and stderr discarded, samples disabled)
    /// and returns its process ID without waiting.
    static func spawn(_ executable: String, _ arguments: [String]) throws -> pid_t {
        var environment = ProcessInfo.processInfo.environment
        environment["RECIPES_NO_SAMPLES"] = "1"
        environment["RECIPES_REMOTE"] = nil
        let argv = [executable] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let spawned = withCStrings(argv) { cArgv in
            withCStrings(envp) { cEnvp in posix_spawn(&pid, executable, &actions, nil, cArgv, cEnvp) }
        }
        guard spawned == 0 else { throw Failure(command: argv.joined(separator: " "), status: spawned) }
        return pid
    }

    /// Waits for a child to end; its raw wait status and resource usage.
    static func wait(_ pid: pid_t, command: String) throws -> (status: Int32, usage: rusage) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw Failure(command: command, status: -1) }
        }
        return (status, usage)
    }

    /// Calls `body` with a NULL-terminated array of C strings made from `strings`.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }
}
