import CouchServer
import Foundation
import InteropSupport
import Logging
import Testing
import TestSupport
import DocumentFormat

/// `GET /_db_updates` and the `_global_changes` database, as CouchDB 3.4.3 serves them: each
/// feed, resuming after a restart, heartbeats, who may read them, and the refusals of bad
/// parameters.
@Suite("CouchServer _db_updates and _global_changes")
struct DatabaseUpdatesTests {
    /// The events of a normal feed from `since`, as `type:db_name`.
    static func events(_ server: TestServer, since: String = "0") async throws -> [String] {
        let reply = try await server.client.send("GET", "/_db_updates?since=\(since)", headers: server.auth)
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        return try (reply.json().objectValue?["results"]?.arrayValue ?? []).compactMap { row in
            guard let type = row.objectValue?["type"]?.stringValue, let name = row.objectValue?["db_name"]?.stringValue else { return nil }
            return type + ":" + name
        }
    }

    /// Waits for the events named in `wanted` to be in the feed after `since`, each longpoll
    /// answering as soon as `_global_changes` is written (a hang guard bounds the whole wait);
    /// returns the feed's `last_seq` then.
    @discardableResult
    static func awaitEvents(_ server: TestServer, _ wanted: Set<String>, since: String = "0") async throws -> String {
        try await withTimeout(60) {
            var cursor = since
            var seen = Set<String>()
            while true {
                let reply = try await server.client.send(
                    "GET", "/_db_updates?feed=longpoll&timeout=60000&since=\(cursor)", headers: server.auth)
                #expect(reply.status == 200)
                let object = try reply.json().objectValue ?? [:]
                for row in object["results"]?.arrayValue ?? [] {
                    if let type = row.objectValue?["type"]?.stringValue, let name = row.objectValue?["db_name"]?.stringValue {
                        seen.insert(type + ":" + name)
                    }
                }
                cursor = object["last_seq"]?.stringValue ?? cursor
                if wanted.isSubset(of: seen) { return cursor }
            }
        }
    }

    /// Opens `GET /_db_updates?{query}` as the administrator over a connection of its own, and
    /// returns once the reply's body has begun (the feed is open and waiting).
    static func openFeed(_ server: TestServer, _ query: String) async throws -> RawHTTPConnection {
        let port = try #require(server.server.port)
        return try await RawHTTPConnection.openFeed(
            "/_db_updates?\(query)", port: port, headers: ["Authorization: \(server.auth["Authorization"] ?? "")"])
    }

    /// A server on `directory` (kept when the server stops, for a restart on the same data).
    static func start(on directory: URL) async throws -> TestServer {
        var configuration = CouchServerConfiguration(
            dataDirectory: directory, host: "127.0.0.1", port: 0,
            credentials: ServerCredentials(user: TestServer.user, password: TestServer.password))
        configuration.passwordIterations = 1000
        var logger = Logger(label: "couchserver-tests")
        logger.logLevel = .warning
        let server = CouchServer(configuration: configuration, logger: logger)
        let port = try await server.start()
        return TestServer(server: server, directory: directory, client: HTTPTestClient(port: port))
    }

    @Test("_global_changes exists once created, as on a single-node CouchDB: before that _db_updates is 404 and events are dropped")
    func createdWhenAsked() async throws {
        try await withServer(TestServer.start()) { server in
            let missing = try await server.client.send("GET", "/_db_updates", headers: server.auth)
            #expect(missing.status == 404)
            #expect(try missing.json() == ["error": "not_found", "reason": "Database does not exist."])
            // `since` is read only once the database is known to exist, as CouchDB reads it.
            #expect(try await server.client.send("GET", "/_db_updates?since=banana", headers: server.auth).status == 404)
            #expect(try await server.client.send("PUT", "/before", headers: server.auth).status == 201)
            let all = try await server.client.send("GET", "/_all_dbs", headers: server.auth).json()
            #expect(all.arrayValue?.contains("_global_changes") == false)

            #expect(try await server.client.send("PUT", "/_global_changes", headers: server.auth).status == 201)
            #expect(try await server.client.send("PUT", "/after", headers: server.auth).status == 201)
            try await Self.awaitEvents(server, ["created:after"])
            let events = try await Self.events(server)
            #expect(!events.contains("created:before"), "\(events)")
            // Its own creation and writes are never recorded.
            #expect(!events.contains { $0.hasSuffix(":_global_changes") }, "\(events)")
            #expect(try await server.client.send("GET", "/_all_dbs", headers: server.auth).json().arrayValue?.contains("_global_changes") == true)
        }
    }

    @Test("Creations, writes and deletions become CouchDB's documents in _global_changes, a burst of writes coalesced into one row")
    func documentsAndCoalescing() async throws {
        try await withServer(TestServer.start()) { server in
            #expect(try await server.client.send("PUT", "/_global_changes", headers: server.auth).status == 201)
            #expect(try await server.client.send("PUT", "/db", headers: server.auth).status == 201)
            for index in 0..<20 {
                #expect(try await server.client.send("PUT", "/db/doc\(index)", json: ["n": .int(Int64(index))], headers: server.auth).status == 201)
            }
            // `_local` and `_security` writes are no events, as in CouchDB.
            _ = try await server.client.send("PUT", "/db/_local/x", json: ["a": 1], headers: server.auth)
            try await Self.awaitEvents(server, ["created:db", "updated:db"])
            #expect(try await server.client.send("DELETE", "/db", headers: server.auth).status == 200)
            try await Self.awaitEvents(server, ["deleted:db"])

            let events = try await Self.events(server)
            // One row per event and database, however many writes: the latest last.
            #expect(events == ["created:db", "updated:db", "deleted:db"], "\(events)")
            let created = try await server.client.send("GET", "/_global_changes/created:db", headers: server.auth)
            // An empty body, with CouchDB's own revision ID for one.
            #expect(try created.json() == ["_id": "created:db", "_rev": "1-967a00dff5e02add41819138abb3284d"])
            let updated = try #require(try await server.client.send("GET", "/_global_changes/updated:db", headers: server.auth).json().objectValue)
            #expect(updated.keys.sorted() == ["_id", "_rev"])
            let info = try await server.client.send("GET", "/_global_changes", headers: server.auth).json()
            #expect(info.objectValue?["doc_count"] == 3)
        }
    }

    @Test("The normal feed: CouchDB's bytes, limit, since, since=now and descending")
    func normalFeed() async throws {
        try await withServer(TestServer.start()) { server in
            #expect(try await server.client.send("PUT", "/_global_changes", headers: server.auth).status == 201)
            for name in ["a", "b", "c"] {
                #expect(try await server.client.send("PUT", "/\(name)", headers: server.auth).status == 201)
                try await Self.awaitEvents(server, ["created:\(name)"])
            }
            let whole = try await server.client.send("GET", "/_db_updates", headers: server.auth)
            #expect(whole.header("Content-Type") == "application/json")
            #expect(String(decoding: whole.body, as: UTF8.self) == """
                {"results":[
                {"db_name":"a","type":"created","seq":"1"},\r
                {"db_name":"b","type":"created","seq":"2"},\r
                {"db_name":"c","type":"created","seq":"3"}
                ],
                "last_seq":"3"}


                """)
            let limited = try await server.client.send("GET", "/_db_updates?limit=2", headers: server.auth).json()
            #expect(limited.objectValue?["results"]?.arrayValue?.count == 2)
            #expect(limited.objectValue?["last_seq"] == "2")
            #expect(try await Self.events(server, since: "2") == ["created:c"])
            let now = try await server.client.send("GET", "/_db_updates?since=now", headers: server.auth).json()
            #expect(now == ["results": [], "last_seq": "3"])
            let newest = try await server.client.send("GET", "/_db_updates?descending=true&limit=2", headers: server.auth).json()
            #expect(newest == ["results": [["db_name": "c", "type": "created", "seq": "3"], ["db_name": "b", "type": "created", "seq": "2"]],
                               "last_seq": "2"])
            // Only `true` itself turns descending on, as in CouchDB.
            #expect(try await server.client.send("GET", "/_db_updates?descending=TRUE&limit=1", headers: server.auth).json()
                    .objectValue?["last_seq"] == "1")
            let none = try await server.client.send("GET", "/_db_updates?limit=0", headers: server.auth).json()
            #expect(none == ["results": [], "last_seq": "0"])
            // A document an administrator wrote without a `:` in its ID is passed over.
            #expect(try await server.client.send("PUT", "/_global_changes/plain", json: [:], headers: server.auth).status == 201)
            #expect(try await Self.events(server, since: "3") == [])
        }
    }

    @Test("Longpoll answers at the next event; continuous streams lines then last_seq; eventsource sends CouchDB's raw rows")
    func waitingFeeds() async throws {
        try await withServer(TestServer.start()) { server in
            #expect(try await server.client.send("PUT", "/_global_changes", headers: server.auth).status == 201)
            // Open (its body begun) before the event it must answer with happens.
            let longpoll = try await Self.openFeed(server, "feed=longpoll&since=now&timeout=60000")
            #expect(try await server.client.send("PUT", "/first", headers: server.auth).status == 201)
            let answered = try await longpoll.readStreamedReply(timeout: 60)
            #expect(try JSONDecoder().decode(JSONValue.self, from: answered.body)
                    == ["results": [["db_name": "first", "type": "created", "seq": "1"]], "last_seq": "1"])

            let continuous = try await server.client.send("GET", "/_db_updates?feed=continuous&timeout=100&since=0", headers: server.auth)
            #expect(String(decoding: continuous.body, as: UTF8.self)
                    == "{\"db_name\":\"first\",\"type\":\"created\",\"seq\":\"1\"}\n{\"last_seq\":\"1\"}\n\n")
            let limited = try await server.client.send("GET", "/_db_updates?feed=continuous&limit=1&timeout=60000", headers: server.auth)
            #expect(String(decoding: limited.body, as: UTF8.self).hasSuffix("{\"last_seq\":\"1\"}\n\n"))

            let events = try await server.client.send("GET", "/_db_updates?feed=eventsource&timeout=100", headers: server.auth)
            #expect(events.header("Content-Type") == "text/event-stream")
            let text = String(decoding: events.body, as: UTF8.self)
            #expect(text.hasPrefix("data: {\"seq\":\"1\",\"id\":\"created:first\",\"changes\":[{\"rev\":\"1-967a00dff5e02add41819138abb3284d\"}]}\nid: \"1\"\n\n"),
                    "\(text)")

            // A continuous feed from now streams the next event as it happens.
            let stream = try await Self.openFeed(server, "feed=continuous&since=now&heartbeat=100")
            #expect(try await server.client.send("PUT", "/second", headers: server.auth).status == 201)
            _ = try await stream.read(until: { String(decoding: $0, as: UTF8.self).contains("\"second\"") }, timeout: 60)
        }
    }

    @Test("Heartbeats: newlines while a longpoll or continuous feed waits, CouchDB's heartbeat event on eventsource")
    func heartbeats() async throws {
        try await withServer(TestServer.start()) { server in
            #expect(try await server.client.send("PUT", "/_global_changes", headers: server.auth).status == 201)
            // A longpoll's body starts with its opening; a heartbeat is a chunk of one newline.
            let longpoll = try await Self.openFeed(server, "feed=longpoll&since=now&heartbeat=100")
            _ = try await longpoll.read(until: { String(decoding: $0, as: UTF8.self).contains("\r\n1\r\n\n\r\n") }, timeout: 60)
            // A continuous feed's body starts with its first heartbeat.
            let continuous = try await Self.openFeed(server, "feed=continuous&since=now&heartbeat=100")
            let eventsource = try await Self.openFeed(server, "feed=eventsource&since=now&heartbeat=100")
            _ = try await eventsource.read(until: { String(decoding: $0, as: UTF8.self).contains("event: heartbeat\ndata: \n\n") }, timeout: 60)
            #expect(try await server.client.send("PUT", "/beat", headers: server.auth).status == 201)
            let answered = try await longpoll.readStreamedReply(timeout: 60)
            let body = String(decoding: answered.body, as: UTF8.self)
            #expect(body.hasPrefix("{\"results\":[\n\n"), "\(body)")
            #expect(body.contains("{\"db_name\":\"beat\",\"type\":\"created\""), "\(body)")
            _ = try await continuous.read(until: { String(decoding: $0, as: UTF8.self).contains("\"beat\"") }, timeout: 60)
            // With heartbeats a feed runs until the server stops; then it ends with last_seq.
            await server.stop()
            let ended = String(decoding: try await continuous.readStreamedReply(timeout: 60).body, as: UTF8.self)
            #expect(ended.hasPrefix("\n"), "\(ended)")
            #expect(ended.hasSuffix("{\"last_seq\":\"1\"}\n\n"), "\(ended)")
        }
    }

    /// A server whose stop keeps its data directory, for a restart on the same data.
    struct KeptServer: StoppableServer {
        let served: TestServer
        func stop() async { await served.server.stop() }
    }

    @Test("Sequences resume across a restart on the same data, and the events of the last requests before a stop are kept")
    func resumesAfterRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("couchserver-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let resumeAt = try await withServer(KeptServer(served: Self.start(on: directory))) { kept in
            let first = kept.served
            #expect(try await first.client.send("PUT", "/_global_changes", headers: first.auth).status == 201)
            #expect(try await first.client.send("PUT", "/one", headers: first.auth).status == 201)
            let resumeAt = try await Self.awaitEvents(first, ["created:one"])
            // Written just before the stop: the stop writes it before the stores close.
            #expect(try await first.client.send("PUT", "/two", headers: first.auth).status == 201)
            return resumeAt
        }
        try await withServer(KeptServer(served: Self.start(on: directory))) { kept in
            let second = kept.served
            #expect(try await Self.events(second, since: resumeAt) == ["created:two"])
            #expect(try await second.client.send("PUT", "/three", headers: second.auth).status == 201)
            try await Self.awaitEvents(second, ["created:three"], since: resumeAt)
            #expect(try await Self.events(second, since: resumeAt) == ["created:two", "created:three"])
            #expect(try await Self.events(second) == ["created:one", "created:two", "created:three"])
        }
    }

    @Test("Only the server administrator reads _db_updates and _global_changes: 401 for anyone else, as in CouchDB")
    func adminOnly() async throws {
        try await withServer(AccountAccessTests.serverWithTwoDatabases(anonymous: .reads)) { server in
            #expect(try await server.client.send("PUT", "/_global_changes", headers: server.auth).status == 201)
            let refusal: JSONValue = ["error": "unauthorized", "reason": "You are not a server admin."]
            for headers in [[:], AccountAccessTests.alice] {
                for path in ["/_db_updates", "/_db_updates?feed=bogus", "/_global_changes", "/_global_changes/_changes",
                             "/_global_changes/created:a"] {
                    let reply = try await server.client.send("GET", path, headers: headers)
                    #expect(reply.status == 401, "\(path)")
                    #expect(try reply.json() == refusal, "\(path)")
                }
                #expect(try await server.client.send("PUT", "/_global_changes/x", json: [:], headers: headers).status == 401)
            }
            let post = try await server.client.send("POST", "/_db_updates", json: [:], headers: server.auth)
            #expect(post.status == 405)
            #expect(try post.json() == ["error": "method_not_allowed", "reason": "Only GET allowed"])
            #expect(try await server.client.send("GET", "/_db_updates", headers: server.auth).status == 200)
        }
    }

    @Test("Bad feed, limit, timeout, heartbeat and since get CouchDB's 400s; numbers of any size are taken, never a crash")
    func badInput() async throws {
        try await withServer(TestServer.start { $0.maxLongpollTimeout = 200 }) { server in
            #expect(try await server.client.send("PUT", "/_global_changes", headers: server.auth).status == 201)
            let invalid: JSONValue = ["error": "bad_request", "reason": "invalid_integer"]
            for query in ["limit=x", "limit=-1", "limit=1.5", "limit=", "timeout=x", "timeout=-5", "heartbeat=x", "heartbeat=-5",
                          "heartbeat=TRUE", "limit=x&feed=bogus"] {
                let reply = try await server.client.send("GET", "/_db_updates?\(query)", headers: server.auth)
                #expect(reply.status == 400, "\(query)")
                #expect(try reply.json() == invalid, "\(query)")
            }
            let feed = try await server.client.send("GET", "/_db_updates?feed=bogus", headers: server.auth)
            #expect(feed.status == 400)
            #expect(try feed.json() == ["error": "bad_request", "reason": "Supported `feed` types: normal, continuous, longpoll, eventsource"])
            for since in ["x", "-1", "1x", "99999999999999999999"] {
                let reply = try await server.client.send("GET", "/_db_updates?since=\(since)", headers: server.auth)
                #expect(reply.status == 400, "\(since)")
                #expect(try reply.json() == ["error": "bad_request", "reason": "Malformed sequence supplied in 'since' parameter."], "\(since)")
            }
            // Integers of any size, a sign, or `-0` are read as CouchDB reads them; a wait is
            // bounded by the server's longest (200 ms here), whatever was asked.
            for query in ["limit=99999999999999999999999", "limit=%2B1", "limit=-0", "heartbeat=9223372036854775808",
                          "feed=longpoll&since=now&timeout=99999999999999999999999",
                          "feed=continuous&since=now&timeout=18446744073709551616",
                          "feed=eventsource&since=now&timeout=9223372036854775807"] {
                let reply = try await withTimeout(60) {
                    try await server.client.send("GET", "/_db_updates?\(query)", headers: server.auth)
                }
                #expect(reply.status == 200, "\(query)")
            }
        }
    }
}
