import InteropSupport
import DocumentStore
import Foundation
import Testing
import TestSupport
import DocumentFormat

/// `recipes serve`'s access and hardening options, end to end through the real executable.
@Suite("recipes serve access and limits")
struct ServeAccessTests {
    /// A running `recipes serve` and what it printed; stopped when dropped.
    struct Served: Sendable {
        var process: RunningProcess
        var port: Int

        /// Stops the process with SIGTERM and waits for it.
        func stop() async { await process.stop() }
    }

    /// Starts `recipes serve --port 0` over `directory` with `arguments`, as admin/`secret`
    /// unless `withUser` is false.
    static func serve(_ directory: URL, withUser: Bool = true, _ arguments: [String]) async throws -> Served {
        let passwordFile = directory.appendingPathComponent("password")
        try "secret\n".write(to: passwordFile, atomically: true, encoding: .utf8)
        let process = try await RunningProcess.start(
            try ServeCommandTests.executable(),
            arguments: ["serve", "--port", "0", "--data-dir", directory.appendingPathComponent("data").path]
                + (withUser ? ["--user", "admin", "--password-file", passwordFile.path] : []) + arguments)
        let port = try await ServeCommandTests.port(of: process)
        return Served(process: process, port: port)
    }

    /// A fresh temporary directory.
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Runs `recipes serve arguments` expecting it to exit at once; returns status and stderr.
    static func refused(_ arguments: [String]) async throws -> (status: Int32, stderr: String, stdout: String) {
        try await run(["serve"] + arguments)
    }

    /// Runs `recipes arguments` (with `environment`, else this process's) to its end, waiting
    /// without holding a thread; returns status, stderr and stdout (both small: read once it exits).
    static func run(_ arguments: [String], environment: [String: String]? = nil) async throws -> (status: Int32, stderr: String, stdout: String) {
        let result = try await RunningProcess.start(try ServeCommandTests.executable(), arguments: arguments, environment: environment).finish()
        return (result.status, result.stderr, result.stdout)
    }

    static let auth = HTTPTestClient.basic("admin", "secret")

    @Test("Without --user, recipes serve needs --allow-anonymous-reads or --allow-anonymous; --help says so")
    func needsUserOrAnonymousFlag() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bare = try await Self.refused(["--port", "0", "--data-dir", directory.path])
        #expect(bare.status == 64)
        #expect(bare.stderr.contains("--allow-anonymous-reads") && bare.stderr.contains("--allow-anonymous"))

        let help = try await Self.refused(["--help"])
        for option in ["--allow-anonymous-reads", "--allow-anonymous ", "--public-host", "--max-total-body-mb"] {
            #expect(help.stdout.contains(option), "\(option)")
        }

        // Read-only without a user: reads open, writes refused.
        let readOnly = try await Self.serve(directory, withUser: false, ["--allow-anonymous-reads"])
        let client = HTTPTestClient(port: readOnly.port)
        #expect(try await client.send("GET", "/_all_dbs").json() == [])
        #expect(try await client.send("PUT", "/recipes").status == 401)
    }

    @Test("--allow-anonymous-reads opens reads but not writes; --public-host adds a name the server answers")
    func anonymousReadsAndPublicHost() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let served = try await Self.serve(directory, ["--allow-anonymous-reads", "--public-host", "recipes.example"])
        let client = HTTPTestClient(port: served.port)
        #expect(try await client.send("PUT", "/recipes", headers: Self.auth).status == 201)
        #expect(try await client.send("PUT", "/recipes/cake", json: ["name": "Cake"]).status == 401)
        #expect(try await client.send("PUT", "/recipes/cake", json: ["name": "Cake"], headers: Self.auth).status == 201)
        #expect(try await client.send("GET", "/recipes/cake").json().objectValue?["name"] == "Cake")
        #expect(try await client.send("POST", "/recipes/_all_docs", json: ["keys": ["cake"]]).status == 200)

        for (host, status) in [("recipes.example:\(served.port)", 200), ("localhost:\(served.port)", 200), ("evil.example:\(served.port)", 400)] {
            #expect(try await BrowserSafetyTests.welcome(port: served.port, host: host).status == status, "\(host)")
        }
    }

    /// The peak resident memory of process `pid`, in bytes (`VmHWM` of /proc).
    static func peakResidentBytes(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }

    @Test("Eight concurrent 60 MB bodies stay within the body budget: peak RSS under 400 MB, GET / answers meanwhile")
    func concurrentLargeBodies() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Four bodies fit the budget at once; the other four wait for room. On a loaded
        // machine (the whole suite on two cores) the first four can take longer than the
        // default 30 s wait, so the wait, and the clients' patience, are generous here.
        let served = try await Self.serve(directory, ["--body-wait", "150", "--idle-timeout", "300"])
        let port = served.port
        let body = Data(repeating: UInt8(ascii: " "), count: 60 * 1024 * 1024)
        let authLine = Self.auth.map { "\($0.key): \($0.value)" }

        // Each body is read whole (it fits --max-body-mb 64), then the missing database is 404.
        // Every client holds back its last byte for a second once the rest is taken, so
        // without a budget the server would hold all eight bodies at once.
        // Each client says when the server has taken all but the last byte of its body.
        let (heldBack, announceHeldBack) = AsyncStream<Void>.makeStream()
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                group.addTask {
                    // A client that fails early ends the wait below too, so its error surfaces.
                    defer { announceHeldBack.finish() }
                    let connection = try RawHTTPConnection(port: port, sendTimeout: 180)
                    try await connection.sendHead([
                        "POST /missing\(index)/_bulk_docs HTTP/1.1", "Host: 127.0.0.1:\(port)", "Content-Type: application/json",
                        "Content-Length: \(body.count)", "Connection: close",
                    ] + authLine)
                    try await connection.send(body.dropLast())
                    announceHeldBack.yield()
                    // The scenario: a client slow to send its last byte.
                    try await simulatedDelay(.seconds(1))
                    try await connection.send(body.suffix(1))
                    return try await connection.readReply(timeout: 240).status
                }
            }
            // GET / is asked while the server holds a body that is not complete yet.
            var firstHeldBack = heldBack.makeAsyncIterator()
            _ = await firstHeldBack.next()
            let started = Date()
            let welcome = try await HTTPTestClient(port: port).send("GET", "/")
            #expect(welcome.status == 200)
            // A hang guard only: the latency itself is measured by `recipes-bench load`.
            #expect(Date().timeIntervalSince(started) < 30)
            var statuses = [Int]()
            for try await status in group { statuses.append(status) }
            return statuses
        }
        #expect(statuses == Array(repeating: 404, count: 8))
        let peak = try Self.peakResidentBytes(served.process.child.processIdentifier)
        #expect(peak < 400 * 1024 * 1024, "peak RSS \(peak / 1024 / 1024) MB")
    }
}
