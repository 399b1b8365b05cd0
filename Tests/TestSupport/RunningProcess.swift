public import Foundation

/// A started program (the `recipes` executable, a test helper) whose standard output and
/// error are collected in files of their own (no pipe can fill up), removed when it is dropped.
public final class RunningProcess: Sendable {
    /// The process.
    public let child: ChildProcess
    /// Its arguments.
    public let arguments: [String]
    private let outURL: URL
    private let errURL: URL

    private init(child: ChildProcess, arguments: [String], outURL: URL, errURL: URL) {
        self.child = child
        self.arguments = arguments
        self.outURL = outURL
        self.errURL = errURL
    }

    /// Starts `executable` with `arguments` and `environment` (`nil`: this process's).
    public static func start(_ executable: URL, arguments: [String], environment: [String: String]? = nil) async throws -> RunningProcess {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let outURL = folder.appendingPathComponent("stdout")
        let errURL = folder.appendingPathComponent("stderr")
        let child = try await ChildProcess.start(
            executable.path, arguments, environment: environment,
            standardOutput: outURL.path, standardError: errURL.path)
        return RunningProcess(child: child, arguments: arguments, outURL: outURL, errURL: errURL)
    }

    deinit {
        // Stopped in the background: the child is reaped once it has gone.
        Task.detached { [child] in _ = try? await child.stop() }
        try? FileManager.default.removeItem(at: outURL.deletingLastPathComponent())
    }

    /// What it printed on standard output so far.
    public var stdout: String { (try? String(contentsOf: outURL, encoding: .utf8)) ?? "" }
    /// What it printed on standard error so far.
    public var stderr: String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

    /// Whether the process still runs.
    public var isRunning: Bool { child.isRunning }

    /// Sends `signal` to the process.
    public func signal(_ signal: Int32) { child.signal(signal) }

    /// Waits for the process and returns its output; kills it and throws when it runs longer
    /// than `timeout` seconds.
    public func finish(timeout: TimeInterval = 120) async throws -> RunResult {
        if try await child.wait(timeout: .milliseconds(Int(timeout * 1000))) == nil {
            try await child.stop(SIGKILL)
            throw ChildProcessError(commandLine: child.commandLine, detail: "did not finish within \(timeout) s, killed; stderr: \(stderr)")
        }
        let status: Int32 = switch try await child.wait() {
        case .exited(let status): status
        case .signalled(let signal): 128 + signal
        }
        return RunResult(status: status, stdout: stdout, stderr: stderr)
    }

    /// Waits until stdout contains `text` (or the process ends, or `timeout` passes).
    public func waitForOutput(containing text: String, timeout: TimeInterval = 180) async -> String? {
        _ = await waitUntil(timeout: timeout) { self.stdout.contains(text) || !self.child.isRunning }
        let out = stdout
        return out.contains(text) ? out : nil
    }

    /// Waits until the process has exited (or `timeout` passes); whether it exited.
    public func waitForExit(timeout: TimeInterval) async -> Bool {
        (try? await child.wait(timeout: .milliseconds(Int(timeout * 1000)))) != nil
    }

    /// Polls `condition` for at most `timeout` seconds (see `TestSupport.waitUntil`); whether it
    /// became true.
    public func waitUntil(timeout: TimeInterval, _ condition: () -> Bool) async -> Bool {
        await TestSupport.waitUntil(timeout: timeout, condition)
    }

    /// Stops the process with SIGTERM (SIGKILL if it is still there 5 s later) and waits for
    /// its exit.
    @discardableResult
    public func stop() async -> ChildProcess.Termination? {
        try? await child.stop()
    }
}


/// What one run of a program produced.
public struct RunResult: CustomStringConvertible, Sendable {
    /// Its exit status (128 plus the signal for a process a signal ended, as shells report it).
    public var status: Int32
    /// Its standard output.
    public var stdout: String
    /// Its standard error.
    public var stderr: String

    /// What it printed and how it ended, for messages.
    public var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }

    /// Stdout decoded as JSON.
    public func json() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
    }
}

