import DocumentFormat
import Foundation
import InteropSupport
import Testing
import TestSupport

/// End to end: `recipes serve --add-user` as a real process, then the account logging in to
/// a real `recipes serve` over the same data directory.
@Suite("recipes serve --add-user")
struct ServeAddUserTests {
    @Test("--add-user creates then updates an account that logs in with its roles; the password is never printed or stored")
    func addUserEndToEnd() async throws {
        let directory = try ServeAccessTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data").path
        let first = directory.appendingPathComponent("first-password")
        let second = directory.appendingPathComponent("second-password")
        try "first-Secret-1\n".write(to: first, atomically: true, encoding: .utf8)
        try "second-Secret-2\n".write(to: second, atomically: true, encoding: .utf8)

        let created = try await ServeAccessTests.refused(["--add-user", "alice", "--password-file", first.path, "--roles", "cook", "--data-dir", data])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout == "created account alice\n")
        let updated = try await ServeAccessTests.refused(
            ["--add-user", "alice", "--password-file", second.path, "--roles", "cook,baker", "--data-dir", data])
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(updated.stdout == "updated account alice\n")
        for output in [created.stdout, created.stderr, updated.stdout, updated.stderr] {
            #expect(!output.contains("Secret"))
        }

        let served = try await ServeAccessTests.serve(directory, [])
        let client = HTTPTestClient(port: served.port)
        let session = try await client.send("GET", "/_session", headers: HTTPTestClient.basic("alice", "second-Secret-2"))
        #expect(try session.json().objectValue?["userCtx"] == ["name": "alice", "roles": ["cook", "baker"]])
        #expect(try await client.send("GET", "/_session", headers: HTTPTestClient.basic("alice", "first-Secret-1")).status == 401)
        let document = try await client.send("GET", "/_users/org.couchdb.user:alice", headers: ServeAccessTests.auth)
        #expect(document.status == 200)
        #expect(!String(decoding: document.body, as: UTF8.self).contains("derived_key"))
        await served.stop()

        for suffix in ["", "-wal"] {
            let path = data + "/_users.couchdb" + suffix
            guard let bytes = FileManager.default.contents(atPath: path) else { continue }
            #expect(bytes.range(of: Data("Secret".utf8)) == nil, "\(path)")
        }
    }

    @Test("--add-user refuses a name CouchDB refuses (exit 65) and needs --password-file (exit 64)")
    func addUserRefusals() async throws {
        let directory = try ServeAccessTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data").path
        let password = directory.appendingPathComponent("password")
        try "pw\n".write(to: password, atomically: true, encoding: .utf8)
        let underscore = try await ServeAccessTests.refused(["--add-user", "_root", "--password-file", password.path, "--data-dir", data])
        #expect(underscore.status == 65)
        #expect(underscore.stderr.contains("Username may not start with underscore."))
        let role = try await ServeAccessTests.refused(
            ["--add-user", "bob", "--password-file", password.path, "--roles", "_admin", "--data-dir", data])
        #expect(role.status == 65)
        #expect(role.stderr.contains("No system roles (starting with underscore) in users db."))
        let noFile = try await ServeAccessTests.refused(["--add-user", "bob", "--data-dir", data])
        #expect(noFile.status == 64)
        #expect(noFile.stderr.contains("--password-file"))
    }
}
