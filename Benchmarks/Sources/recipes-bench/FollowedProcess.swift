import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A long-running child process (a `recipes sync --live` or `recipes list --watch`) whose
/// standard output goes to a file that is read as it grows, with the CPU time it has used.
final class FollowedProcess {
    let process = Process()
    /// Where its standard output goes.
    let output: URL

    /// Starts `executable` with `arguments` in `environment`, stdout to `output` and stderr to
    /// `output` with `.err` appended.
    init(_ executable: String, _ arguments: [String], output: URL, environment: [String: String]) throws {
        self.output = output
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: output.path + ".err", contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: output.path + ".err"))
        try process.run()
    }

    /// Everything it has printed so far.
    var text: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// The `event` of each JSON line printed so far (`recipes sync --live --json`).
    var events: [String] {
        text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["event"] as? String
        }
    }

    /// The CPU time (user and system) it has used so far, in seconds, from `/proc`.
    var cpuSeconds: Double { Self.cpuSeconds(of: process.processIdentifier) }

    /// The CPU time (user and system) process `pid` has used so far, in seconds.
    static func cpuSeconds(of pid: pid_t) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        // Fields after the command name: state is the first, utime the 12th, stime the 13th.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Sends `signal` and waits up to `timeout` seconds for the exit; its exit status, or `nil`
    /// if it did not exit in time (it is then killed).
    func stop(_ signal: Int32 = SIGINT, timeout: Double = 10) -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        _ = kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            _ = kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    /// Waits until `condition` holds, checking every 2 ms, for at most `timeout` seconds;
    /// whether it came to hold.
    static func wait(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            usleep(2_000)
        }
        return true
    }
}
