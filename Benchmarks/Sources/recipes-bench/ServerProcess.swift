import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A `recipes serve` or `recipes web` child process on 127.0.0.1 and a free port (or a
/// given one).
final class ServerProcess {
    let process = Process()
    let port: Int

    /// Starts `recipes serve` with `access` (anonymous writes by default, or `--user …`
    /// options) and waits for its "listening on" line; `errorLog` receives its stderr.
    /// `port` 0 lets the server pick a free one; another restarts a server where one was.
    /// `extra` is appended to the command line (`--tls-cert` and `--tls-key`, say).
    convenience init(executable: String, dataDirectory: URL, maxBodyMegabytes: Int = 64, access: [String] = ["--allow-anonymous"],
                     errorLog: URL? = nil, port requestedPort: Int = 0, extra: [String] = []) throws {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        try self.init(executable: executable, arguments: [
            "serve", "--data-dir", dataDirectory.path, "--bind", "127.0.0.1", "--port", String(requestedPort),
        ] + access + ["--max-body-mb", String(maxBodyMegabytes)] + extra, errorLog: errorLog)
    }

    /// Starts `executable` with `arguments` (a server command that binds 127.0.0.1 and prints
    /// "listening on http://127.0.0.1:PORT", or https://) and waits for that line.
    init(executable: String, arguments: [String], errorLog: URL? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let errorLog {
            _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errorLog)
        }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var text = ""
        let handle = output.fileHandleForReading
        while !text.contains("\n") {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: "listening on http://127.0.0.1:") ?? text.range(of: "listening on https://127.0.0.1:"),
              let port = Int(text[range.upperBound...].prefix { $0.isNumber }) else {
            process.terminate()
            throw ValidationError("`recipes \(arguments.first ?? "")` did not report its port (said: \(text))")
        }
        self.port = port
        // Keep reading: the server logs warnings to stdout, and a full pipe would block it.
        let log = process.standardError as? FileHandle
        handle.readabilityHandler = { handle in
            let chunk = handle.availableData
            if !chunk.isEmpty { log?.write(chunk) }
        }
    }

    /// The server's process ID.
    var pid: pid_t { process.processIdentifier }

    /// Kills the server at once (SIGKILL), as a crash or a power cut would, and waits for it.
    func kill() {
        if process.isRunning {
            _ = Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Stops the server (SIGTERM) and waits for it.
    func terminate() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
