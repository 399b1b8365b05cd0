import InteropSupport
import DocumentStore
import Foundation
import Testing
import TestSupport
import DocumentFormat

/// Issue #9's numbered cases as regressions against one real `recipes serve` process
/// (admin/`secret`, default access), over real HTTP on 127.0.0.1. Each test uses its own
/// database and ends by checking that the process still answers `GET /`.
///
/// Not here, because they are already tested end to end elsewhere:
/// - case 3 (a remote's `_changes` `pending` past 2^53 − 1): `RemoteNumberTests` pulls from a
///   real HTTP server on 127.0.0.1 that sends it;
/// - case 5 (SIGTERM with a heartbeat longpoll open): `ServeShutdownTests` does exactly that to
///   the real process (and SIGINT, and a continuous feed).
@Suite("recipes serve: issue #9 regressions", SharedServe())
struct ServeRegressionTests {
    /// The suite's server.
    var port: Int { SharedServe.port }
    var client: HTTPTestClient { HTTPTestClient(port: port) }
    let auth = ServeAccessTests.auth

    /// A reply is CouchDB's error shape: `{"error": string, "reason": string}`; returns `error`.
    @discardableResult
    static func couchError(_ reply: HTTPReply, _ comment: Comment? = nil) throws -> String? {
        let object = try reply.json().objectValue
        #expect(object?["error"]?.stringValue != nil && object?["reason"]?.stringValue != nil,
                "\(comment?.rawValue ?? "") \(String(decoding: reply.body, as: UTF8.self))")
        return object?["error"]?.stringValue
    }

    /// The process is still there and answers `GET /`.
    func expectAlive() async throws {
        let welcome = try await client.send("GET", "/")
        #expect(welcome.status == 200)
        #expect(try welcome.json().objectValue?["couchdb"] == "Welcome")
    }

    /// Creates database `name` as the administrator.
    func create(_ name: String) async throws {
        #expect(try await client.send("PUT", "/\(name)", headers: auth).status == 201)
    }

    @Test("Case 1: _find with limit 2^63 - 1 gets a 400 error body, and the server lives")
    func case1FindLimitOverflow() async throws {
        try await create("case1")
        #expect(try await client.send("PUT", "/case1/a", json: ["n": 1], headers: auth).status == 201)
        let body = Data(#"{"selector":{},"limit":9223372036854775807,"skip":1}"#.utf8)
        let find = try await client.send("POST", "/case1/_find", headers: auth.merging(["Content-Type": "application/json"]) { $1 }, body: body)
        #expect(find.status == 400)
        #expect(try Self.couchError(find) == "bad_request")
        try await expectAlive()
    }

    @Test("Case 2: revision generation 2^63 - 1 is refused by _bulk_docs, a _local rev 0-(2^63 - 1) does not crash")
    func case2RevisionGenerationOverflow() async throws {
        try await create("case2")
        let bulk = try await client.send("POST", "/case2/_bulk_docs", json: [
            "new_edits": false, "docs": [["_id": "ovf", "_rev": "9223372036854775807-abc"]],
        ], headers: auth)
        #expect((400..<500).contains(bulk.status), "\(bulk.status)")
        try Self.couchError(bulk)
        #expect(try await client.send("GET", "/case2/ovf", headers: auth).status == 404)

        let local = try await client.send("PUT", "/case2/_local/x", json: ["_rev": "0-9223372036854775807"], headers: auth)
        // No such _local document: any _rev is refused (400 for the number, or 409 conflict).
        #expect([400, 409].contains(local.status), "\(local.status)")
        try Self.couchError(local)
        try await expectAlive()
    }

    @Test("Case 4: recipes sync pulls the new documents after the served database was deleted and recreated")
    func case4PullAfterRecreatedDatabase() async throws {
        try await create("case4")
        for index in 0..<5 {
            #expect(try await client.send("PUT", "/case4/old-\(index)", json: ["n": .int(Int64(index))], headers: auth).status == 201)
        }
        let sandbox = try ServeAccessTests.directory()
        defer { try? FileManager.default.removeItem(at: sandbox) }
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RECIPES_") && !$0.key.hasPrefix("XDG_") }
        for (name, folder) in [("HOME", "home"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config")] {
            let path = sandbox.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
            environment[name] = path.path
        }
        let store = sandbox.appendingPathComponent("puller.sqlite").path
        let sync = ["sync", "--pull-only", "--json", "--no-samples", "--store", store,
                    "--remote", "http://admin:secret@127.0.0.1:\(port)/case4"]

        let first = try await ServeAccessTests.run(sync, environment: environment)
        #expect(first.status == 0, "\(first)")
        #expect(try DocumentStore(path: store).get(id: "old-4") != nil)

        #expect(try await client.send("DELETE", "/case4", headers: auth).status == 200)
        try await create("case4")
        for index in 0..<3 {
            #expect(try await client.send("PUT", "/case4/new-\(index)", json: ["n": .int(Int64(index))], headers: auth).status == 201)
        }
        let second = try await ServeAccessTests.run(sync, environment: environment)
        #expect(second.status == 0, "\(second)")
        let pulled = try DocumentStore(path: store)
        for index in 0..<3 {
            #expect(try pulled.get(id: "new-\(index)") != nil, "new-\(index) after \(second)")
        }
        try await expectAlive()
    }

    @Test("Case 7: an 8 MB body without credentials gets 401; more keys or docs than the 100,000 cap get 400")
    func case7LargeBodiesAndEntryCap() async throws {
        try await create("case7")
        var keys = Data(#"{"keys":["#.utf8)
        keys.append(Data(repeating: UInt8(ascii: " "), count: 8 * 1024 * 1024))
        keys.append(Data(#""k"]}"#.utf8))

        // Refused from its head: the 401 comes before a byte of the body is sent. The body is
        // then read and discarded, and the same connection answers the next request. (Not with
        // `Connection: close`: then the server sends the 401, stops reading and waits for the
        // client to close, so a client that sends its whole body before reading never finishes.)
        let connection = try RawHTTPConnection(port: port)
        try await connection.sendHead([
            "POST /case7/_all_docs HTTP/1.1", "Host: 127.0.0.1:\(port)", "Content-Type: application/json",
            "Content-Length: \(keys.count)",
        ])
        let early = try await connection.readReply()
        #expect(early.status == 401)
        #expect(try Self.couchError(early) == "unauthorized")
        try await connection.send(keys)
        try await connection.sendHead(["GET / HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"])
        #expect(try await connection.readReply().status == 200)
        // Sent whole, it is refused the same way.
        let whole = try await client.send("POST", "/case7/_all_docs", headers: ["Content-Type": "application/json"], body: keys)
        #expect(whole.status == 401)
        #expect(try Self.couchError(whole) == "unauthorized")
        try await expectAlive()

        // One entry past the cap (CouchServerConfiguration.maxEntriesPerRequest, 100,000).
        let ids = (0...100_000).map { "\"k\($0)\"" }
        for (path, body) in [
            ("/case7/_all_docs", #"{"keys":["# + ids.joined(separator: ",") + "]}"),
            ("/case7/_bulk_get", #"{"docs":["# + ids.map { #"{"id":\#($0)}"# }.joined(separator: ",") + "]}"),
        ] {
            let reply = try await client.send("POST", path, headers: auth.merging(["Content-Type": "application/json"]) { $1 }, body: Data(body.utf8))
            #expect(reply.status == 400, "\(path)")
            #expect(try Self.couchError(reply, "\(path)") == "bad_request", "\(path)")
            #expect(String(decoding: reply.body, as: UTF8.self).contains("100000"), "\(path)")
        }
        try await expectAlive()
    }

    @Test("Case 8: anonymous _all_docs gets 401 by default; a foreign Host gets 400 even with credentials")
    func case8AnonymousAndForeignHost() async throws {
        try await create("case8")
        let anonymous = try await client.send("GET", "/case8/_all_docs")
        #expect(anonymous.status == 401)
        #expect(try anonymous.json() == AccessModelTests.notAuthorized)
        #expect(try await client.send("GET", "/case8/_all_docs", headers: auth).status == 200)

        for host in ["evil.example", "evil.example:\(port)"] {
            let connection = try RawHTTPConnection(port: port)
            try await connection.sendHead(["GET /case8/_all_docs HTTP/1.1", "Host: \(host)", "Connection: close"]
                + auth.map { "\($0.key): \($0.value)" })
            let reply = try await connection.readReply()
            #expect(reply.status == 400, "\(host)")
            #expect(try Self.couchError(reply, "\(host)") == "bad_request", "\(host)")
        }
        try await expectAlive()
    }

    @Test("Case 9: a cookie-authenticated text/plain _bulk_docs gets 415; the AuthSession cookie is HttpOnly and SameSite=Lax")
    func case9CookieAndContentType() async throws {
        try await create("case9")
        let login = try await client.send("POST", "/_session", json: ["name": "admin", "password": "secret"])
        #expect(login.status == 200)
        let setCookie = try #require(login.header("Set-Cookie"))
        let attributes = Set(setCookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(attributes.contains("HttpOnly") && attributes.contains("SameSite=Lax"), "\(setCookie)")
        let cookie = try #require(attributes.first { $0.hasPrefix("AuthSession=") })

        let docs = Data(#"{"docs":[{"_id":"forged"}]}"#.utf8)
        let plain = try await client.send("POST", "/case9/_bulk_docs", headers: ["Cookie": cookie, "Content-Type": "text/plain"], body: docs)
        #expect(plain.status == 415)
        #expect(try plain.json() == ["error": "bad_content_type", "reason": "Content-Type must be application/json"])
        #expect(try await client.send("GET", "/case9/forged", headers: ["Cookie": cookie]).status == 404)
        // The cookie itself is good: the same request as JSON writes.
        let json = try await client.send("POST", "/case9/_bulk_docs", headers: ["Cookie": cookie, "Content-Type": "application/json"], body: docs)
        #expect(json.status == 201)
        try await expectAlive()
    }

    @Test("Case 10: new_edits=false with a declared attachment length of 999999 for 5 bytes, or a CR/LF name, gets 400")
    func case10AttachmentLengthAndName() async throws {
        try await create("case10")
        let data = JSONValue.string(AttachmentVerificationTests.bytes.base64EncodedString())
        let rev = AttachmentVerificationTests.rev1
        let longer = AttachmentVerificationTests.replicated(rev, "a.txt", ["content_type": "text/plain", "data": data, "length": 999_999])
        let put = try await client.send("PUT", "/case10/doc?new_edits=false", json: longer, headers: auth)
        #expect(put.status == 400)
        #expect(try Self.couchError(put) == "bad_request")
        let bulk = try await client.send("POST", "/case10/_bulk_docs", json: ["new_edits": false, "docs": [longer]], headers: auth)
        #expect(bulk.status == 400)
        try Self.couchError(bulk)

        let injected = AttachmentVerificationTests.replicated(rev, "a\r\nX-Injected: 1", ["content_type": "text/plain", "data": data])
        let named = try await client.send("PUT", "/case10/doc?new_edits=false", json: injected, headers: auth)
        #expect(named.status == 400)
        #expect(try Self.couchError(named) == "bad_request")
        #expect(try await client.send("GET", "/case10/doc", headers: auth).status == 404)
        try await expectAlive()
    }

    @Test("Case 11: a second PUT of a _local document with a missing or stale _rev gets 409")
    func case11LocalDocumentConflict() async throws {
        try await create("case11")
        let created = try await client.send("PUT", "/case11/_local/cp", json: ["seq": 1], headers: auth)
        #expect(created.status == 201)
        #expect(try created.json().objectValue?["rev"] == "0-1")
        for stale: JSONValue in [["seq": 2], ["seq": 2, "_rev": "0-7"]] {
            let refused = try await client.send("PUT", "/case11/_local/cp", json: stale, headers: auth)
            #expect(refused.status == 409)
            #expect(try refused.json() == ["error": "conflict", "reason": "Document update conflict."])
        }
        #expect(try await client.send("GET", "/case11/_local/cp", headers: auth).json().objectValue?["seq"] == 1)
        let updated = try await client.send("PUT", "/case11/_local/cp", json: ["seq": 2, "_rev": "0-1"], headers: auth)
        #expect(updated.status == 201)
        try await expectAlive()
    }
}

/// Starts one `recipes serve` (admin/`secret`, nothing anonymous) for the whole suite, hands
/// its port to the tests, checks it is still running at the end, and stops it.
struct SharedServe: SuiteTrait, TestScoping {
    @TaskLocal static var current: Int?

    /// The port of the suite's server.
    static var port: Int {
        guard let current else { fatalError("SharedServe.port read outside a suite that has the SharedServe trait") }
        return current
    }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let directory = try ServeAccessTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let served = try await ServeAccessTests.serve(directory, [])
        try await Self.$current.withValue(served.port) { try await function() }
        if let termination = served.process.child.termination {
            Issue.record("recipes serve exited during the suite (\(termination)): \(served.process.stderr)")
        }
    }
}
