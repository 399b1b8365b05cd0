import DocumentStore
import Foundation
import InteropSupport
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
import DocumentFormat
#endif

/// `recipes serve` stops on SIGTERM whatever its clients do, and closes a connection that
/// stops sending partway through a request body. Real process, raw sockets. The timeouts are
/// hang guards: before this, the server was still running 150 s after SIGTERM.
@Suite("recipes serve shutdown and idle connections")
struct ServeShutdownTests {
    /// Opens a connection that announces a 10 MB `_bulk_docs` body and sends 20 bytes of it.
    static func slowBody(port: Int) async throws -> RawHTTPConnection {
        let connection = try RawHTTPConnection(port: port)
        try await connection.sendHead([
            "POST /slow/_bulk_docs HTTP/1.1", "Host: 127.0.0.1:\(port)", "Content-Type: application/json",
            "Authorization: \(ServeAccessTests.auth["Authorization"] ?? "")", "Content-Length: 10000000",
        ])
        try await connection.send(Data(#"{"docs":[{"a":1},{"b""#.utf8))
        return connection
    }

    @Test("SIGTERM with ten request bodies stalled partway stops the server within its grace period")
    func sigtermWithStalledBodies() async throws {
        let directory = try ServeAccessTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let served = try await ServeAccessTests.serve(directory, [])
        let client = HTTPTestClient(port: served.port)
        #expect(try await client.send("PUT", "/slow", headers: ServeAccessTests.auth).status == 201)
        var stalled: [RawHTTPConnection] = []
        for _ in 0..<10 { stalled.append(try await Self.slowBody(port: served.port)) }
        // The server has read the heads once a request after them is answered.
        #expect(try await client.send("GET", "/slow", headers: ServeAccessTests.auth).status == 200)

        // Hang guard: a server still there after 60 s is killed, and the test fails.
        let termination = try await served.process.child.stop(SIGTERM, grace: .seconds(60))
        #expect(termination == .exited(0), "\(termination)")
        for connection in stalled { #expect(try await connection.waitForClose(timeout: 60)) }
    }

    @Test("A request body that stops coming is dropped after --idle-timeout; the server keeps serving")
    func stalledBodyTimesOut() async throws {
        let directory = try ServeAccessTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let served = try await ServeAccessTests.serve(directory, ["--idle-timeout", "1", "--body-wait", "0"])
        let client = HTTPTestClient(port: served.port)
        #expect(try await client.send("PUT", "/slow", headers: ServeAccessTests.auth).status == 201)
        let stalled = try await Self.slowBody(port: served.port)
        #expect(try await stalled.waitForClose(timeout: 60), "the stalled connection was never closed")
        #expect(try await client.send("GET", "/slow", headers: ServeAccessTests.auth).json().objectValue?["doc_count"] == 0)
        let refused = try await ServeAccessTests.refused(["--idle-timeout", "0", "--allow-anonymous"])
        #expect(refused.status == 64 && refused.stderr.contains("--idle-timeout"), "\(refused)")
        let clash = try await ServeAccessTests.refused(["--idle-timeout", "20", "--body-wait", "30", "--allow-anonymous"])
        #expect(clash.status == 64 && clash.stderr.contains("must be shorter than --idle-timeout"), "\(clash)")
    }
}
