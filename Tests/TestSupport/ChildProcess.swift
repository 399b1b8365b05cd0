public import Foundation
// Linked for its constructor: the test process may open as many files as its hard limit allows.
internal import CTestProcessLimits
import Subprocess
import Synchronization
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// A child process a test starts, signals and waits for: the `recipes` program, a helper
/// executable, chromedriver.
///
/// It is spawned through swift-subprocess rather than Foundation's `Process`: on Linux,
/// `Process.run` lists `/proc/self/fd` to close every inherited descriptor, copying each
/// entry's whole name buffer, and reads past the end of the directory buffer when the test
/// process holds about a thousand files (servers, stores and sockets of the tests running
/// beside it): an intermittent crash of the whole test run. swift-subprocess closes the
/// inherited descriptors in the child with `close_range`, whatever their number.
///
/// Output goes to files, never pipes, so a child that writes a lot never blocks on a reader.
/// Waiting never holds a thread: the child's end is awaited, not polled.
public final class ChildProcess: Sendable {
    /// How a child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .signalled(let signal): "signal \(signal)\(signal == SIGKILL ? " (SIGKILL)" : signal == SIGTERM ? " (SIGTERM)" : signal == SIGINT ? " (SIGINT)" : "")"
            }
        }
    }

    /// The child's process ID (in its own process group when it was started with one, whose
    /// ID is then the same).
    public let processIdentifier: Int32
    /// The executable's file name and arguments, for messages.
    public let commandLine: String
    private let ending: Task<Termination, any Error>
    private let ended: EndState

    /// How the child ended, once it has, shared with the task that waits for it.
    private final class EndState: Sendable {
        let termination = Mutex<Termination?>(nil)
    }

    private init(processIdentifier: Int32, commandLine: String, ending: Task<Termination, any Error>, ended: EndState) {
        self.processIdentifier = processIdentifier
        self.commandLine = commandLine
        self.ending = ending
        self.ended = ended
    }

    /// Starts `executable` with `arguments` and returns once it runs.
    ///
    /// - Parameters:
    ///   - environment: the child's whole environment; `nil` inherits this process's.
    ///   - standardOutput: a file the child's standard output is appended to (created if
    ///     missing); `nil` discards it.
    ///   - standardError: the same for standard error; `nil` discards it.
    ///   - ownProcessGroup: starts the child in a process group of its own, so
    ///     ``signalGroup(_:)`` reaches everything it starts.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        standardOutput: String? = nil, standardError: String? = nil, ownProcessGroup: Bool = false
    ) async throws -> ChildProcess {
        let output = try openForAppending(standardOutput ?? "/dev/null")
        let error: FileDescriptor
        do { error = try openForAppending(standardError ?? "/dev/null") } catch {
            try? output.close()
            throw error
        }
        var options = PlatformOptions()
        if ownProcessGroup { options.processGroupID = 0 }
        let childEnvironment: Subprocess.Environment = environment.map { values in
            .custom(Dictionary(uniqueKeysWithValues: values.compactMap { key, value in
                Subprocess.Environment.Key(rawValue: key).map { ($0, value) }
            }))
        } ?? .inherit
        let commandLine = ([URL(fileURLWithPath: executable).lastPathComponent] + arguments).joined(separator: " ")
        let ended = EndState()
        let (started, announce) = AsyncStream<Int32>.makeStream()
        let ending = Task<Termination, any Error> {
            defer { announce.finish() }
            let result = try await Subprocess.run(
                .path(FilePath(executable)), arguments: Arguments(arguments), environment: childEnvironment,
                platformOptions: options, input: .none,
                output: .fileDescriptor(output, closeAfterSpawningProcess: true),
                error: .fileDescriptor(error, closeAfterSpawningProcess: true)
            ) { execution in
                announce.yield(execution.processIdentifier.value)
                announce.finish()
            }
            let termination: Termination = switch result.terminationStatus {
            case .exited(let status): .exited(status)
            case .signaled(let signal): .signalled(signal)
            }
            ended.termination.withLock { $0 = termination }
            return termination
        }
        var iterator = started.makeAsyncIterator()
        guard let pid = await iterator.next() else {
            // The spawn failed: the task holds its error.
            _ = try await ending.value
            throw ChildProcessError(commandLine: commandLine, detail: "did not start")
        }
        return ChildProcess(processIdentifier: pid, commandLine: commandLine, ending: ending, ended: ended)
    }

    deinit {
        if termination == nil { kill(processIdentifier, SIGKILL) }
    }

    /// Whether the child still runs (it has not been reaped yet).
    public var isRunning: Bool { termination == nil }

    /// How the child ended; `nil` while it runs.
    public var termination: Termination? { ended.termination.withLock { $0 } }

    /// Sends `signal` to the child, if it still runs.
    public func signal(_ signal: Int32) {
        if isRunning { kill(processIdentifier, signal) }
    }

    /// Sends `signal` to the child's process group (see `ownProcessGroup`), if it still runs.
    public func signalGroup(_ signal: Int32) {
        if isRunning { kill(-processIdentifier, signal) }
    }

    /// Waits for the child to end, however long it takes.
    @discardableResult
    public func wait() async throws -> Termination {
        try await ending.value
    }

    /// Waits at most `timeout` for the child to end: how it ended, or `nil` if it still runs.
    public func wait(timeout: Duration) async throws -> Termination? {
        try await withThrowingTaskGroup(of: Termination?.self) { group in
            group.addTask { try await self.ending.value }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Stops the child: `signal` (SIGTERM by default), then SIGKILL if it still runs after
    /// `grace`; returns how it ended.
    @discardableResult
    public func stop(_ signal: Int32 = SIGTERM, grace: Duration = .seconds(5)) async throws -> Termination {
        self.signal(signal)
        if let termination = try await wait(timeout: grace) { return termination }
        self.signal(SIGKILL)
        return try await wait()
    }

    private static func openForAppending(_ path: String) throws -> FileDescriptor {
        try FileDescriptor.open(FilePath(path), .writeOnly, options: [.create, .append], permissions: [.ownerReadWrite, .groupRead, .otherRead])
    }
}

/// A child process that could not be started or did not do what a test waited for: names
/// the command, what was expected and what was seen, in one line.
public struct ChildProcessError: Error, CustomStringConvertible {
    /// The executable's file name and arguments.
    public var commandLine: String
    /// What went wrong.
    public var detail: String

    /// An error about the child `commandLine`.
    public init(commandLine: String, detail: String) {
        self.commandLine = commandLine
        self.detail = detail
    }

    public var description: String { "\(commandLine): \(detail)" }
}
