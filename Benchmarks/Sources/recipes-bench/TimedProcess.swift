import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program as a child process with a deadline, its stdout and stderr captured in
/// files, and tells how it ended: an exit status, a signal, or killed at the deadline.
enum TimedProcess {
    /// How one run ended.
    struct Outcome {
        /// The exit status, when the process exited.
        var exitStatus: Int32?
        /// The signal that ended it, when one did (other than our own kill at the deadline).
        var signal: Int32?
        /// Whether it was still running at the deadline (and was killed).
        var timedOut: Bool
        var stdout: String
        var stderr: String
        var seconds: Double
    }

    /// Runs `executable` with `arguments` in `environment`, killing it with SIGKILL after
    /// `timeout` seconds; `scratch` is a directory for the output files.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    timeout: Double, scratch: URL) throws -> Outcome {
        let outURL = scratch.appendingPathComponent("child-\(UUID().uuidString).out")
        let errURL = scratch.appendingPathComponent("child-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        var timedOut = false
        while process.isRunning {
            if SyncBenchmark.seconds(since: start) > timeout {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                break
            }
            usleep(10_000)
        }
        process.waitUntilExit()
        try? outHandle.close()
        try? errHandle.close()
        let seconds = SyncBenchmark.seconds(since: start)
        let stdout = String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self)
        let stderr = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        let signaled = process.terminationReason == .uncaughtSignal
        return Outcome(exitStatus: signaled ? nil : process.terminationStatus,
                       signal: signaled && !timedOut ? process.terminationStatus : nil,
                       timedOut: timedOut, stdout: stdout, stderr: stderr, seconds: seconds)
    }
}
