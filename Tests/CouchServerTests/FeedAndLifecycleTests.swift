import InteropSupport
import CouchServer
import DocumentStore
import Foundation
import Testing
import Synchronization
import TestSupport
import DocumentFormat

/// Changes-feed variants, deletions, local documents, HEAD, multipart `_bulk_get` and
/// session renewal.
@Suite("CouchServer feeds and lifecycle")
struct FeedAndLifecycleTests {
    @Test("Continuous feeds stream one line per change then last_seq; _doc_ids filters; main_only keeps the winner")
    func feeds() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            _ = try await server.client.send("PUT", "/db", headers: server.auth)
            for id in ["a", "b", "c"] {
                _ = try await server.client.send("PUT", "/db/\(id)", json: ["v": 1], headers: server.auth)
            }
            // A conflict on "a", inserted as a replicator would.
            let conflict = try await server.client.send("POST", "/db/_bulk_docs", json: [
                "new_edits": false, "docs": [["_id": "a", "_rev": "1-ffffffffffffffffffffffffffffffff", "v": 2]],
            ], headers: server.auth)
            #expect(try conflict.json() == [])

            let continuous = try await server.client.send("GET", "/db/_changes?feed=continuous&timeout=300&since=0")
            let lines = String(decoding: continuous.body, as: UTF8.self).split(separator: "\n").filter { !$0.isEmpty }
            let parsed = try lines.map { try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
            #expect(parsed.count == 4)
            #expect(parsed.last?.objectValue?["last_seq"] != nil)
            #expect(Set(parsed.dropLast().compactMap { $0.objectValue?["id"]?.stringValue }) == ["a", "b", "c"])

            let filtered = try await server.client.send("POST", "/db/_changes?filter=_doc_ids&style=all_docs", json: ["doc_ids": ["a"]]).json()
            let rows = filtered.objectValue?["results"]?.arrayValue ?? []
            #expect(rows.count == 1)
            #expect(rows.first?.objectValue?["changes"]?.arrayValue?.count == 2)
            let mainOnly = try await server.client.send("GET", "/db/_changes?doc_ids=%5B%22a%22%5D&filter=_doc_ids").json()
            #expect(mainOnly.objectValue?["results"]?.arrayValue?.first?.objectValue?["changes"]?.arrayValue?.count == 1)

            let limited = try await server.client.send("GET", "/db/_changes?limit=1").json()
            #expect(limited.objectValue?["results"]?.arrayValue?.count == 1)
            #expect(limited.objectValue?["pending"] == 2)
            let next = try #require(limited.objectValue?["last_seq"]?.stringValue)
            let rest = try await server.client.send("GET", "/db/_changes?since=\(next)").json()
            #expect(rest.objectValue?["results"]?.arrayValue?.count == 2)
            #expect(try await server.client.send("GET", "/db/_changes?since=banana").status == 400)
            let tip = try await server.client.send("GET", "/db/_changes?descending=true&limit=1").json()
            let newest = try await server.client.send("GET", "/db").json().objectValue?["update_seq"]
            #expect(tip.objectValue?["results"]?.arrayValue?.count == 1)
            #expect(tip.objectValue?["results"]?.arrayValue?.first?.objectValue?["seq"] == newest)
        }
    }

    @Test("Deleting a document leaves a tombstone that the feed, _all_docs keys and GET report as CouchDB does")
    func deletion() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            _ = try await server.client.send("PUT", "/db", headers: server.auth)
            let created = try await server.client.send("PUT", "/db/gone", json: ["v": 1], headers: server.auth).json()
            let rev = try #require(created.objectValue?["rev"]?.stringValue)
            #expect(try await server.client.send("DELETE", "/db/gone", headers: server.auth).status == 409)
            #expect(try await server.client.send("DELETE", "/db/gone?rev=1-00000000000000000000000000000000", headers: server.auth).status == 409)
            let deleted = try await server.client.send("DELETE", "/db/gone?rev=\(rev)", headers: server.auth)
            #expect(deleted.status == 200)
            let missing = try await server.client.send("GET", "/db/gone")
            #expect(missing.status == 404)
            #expect(try missing.json() == ["error": "not_found", "reason": "deleted"])
            #expect(try await server.client.send("GET", "/db/never").json() == ["error": "not_found", "reason": "missing"])
            let info = try await server.client.send("GET", "/db").json()
            #expect(info.objectValue?["doc_count"] == 0)
            #expect(info.objectValue?["doc_del_count"] == 1)
            let changes = try await server.client.send("GET", "/db/_changes").json()
            #expect(changes.objectValue?["results"]?.arrayValue?.first?.objectValue?["deleted"] == true)
            let keyed = try await server.client.send("POST", "/db/_all_docs", json: ["keys": ["gone"]]).json()
            #expect(keyed.objectValue?["rows"]?.arrayValue?.first?.objectValue?["value"]?.objectValue?["deleted"] == true)
            // Recreating on top of the tombstone is allowed, as in CouchDB.
            #expect(try await server.client.send("PUT", "/db/gone", json: ["v": 2], headers: server.auth).status == 201)
            let revived = try await server.client.send("GET", "/db").json()
            #expect(revived.objectValue?["doc_del_count"] == 0)
            #expect(revived.objectValue?["doc_count"] == 1)
            #expect(try await server.client.send("HEAD", "/db/gone").status == 200)
            #expect(try await server.client.send("HEAD", "/db/never").status == 404)
        }
    }

    @Test("Local documents count their 0-N revisions, stay out of the feed, and delete")
    func localDocuments() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            _ = try await server.client.send("PUT", "/db", headers: server.auth)
            let first = try await server.client.send("PUT", "/db/_local/cp", json: ["seq": "1"], headers: server.auth).json()
            #expect(first == ["ok": true, "id": "_local/cp", "rev": "0-1"])
            let second = try await server.client.send("PUT", "/db/_local/cp", json: ["_rev": "0-1", "seq": "2"], headers: server.auth).json()
            #expect(second.objectValue?["rev"] == "0-2")
            let read = try await server.client.send("GET", "/db/_local%2Fcp").json()
            #expect(read == ["_id": "_local/cp", "_rev": "0-2", "seq": "2"])
            #expect(try await server.client.send("GET", "/db/_changes").json().objectValue?["results"] == [])
            #expect(try await server.client.send("DELETE", "/db/_local/cp?rev=0-2", headers: server.auth).status == 200)
            #expect(try await server.client.send("GET", "/db/_local/cp").status == 404)
        }
    }

    @Test("DELETE of a local document checks its revision as PUT does")
    func localDeleteChecksTheRevision() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            _ = try await server.client.send("PUT", "/db", headers: server.auth)
            _ = try await server.client.send("PUT", "/db/_local/cp", json: ["seq": "1"], headers: server.auth)
            _ = try await server.client.send("PUT", "/db/_local/cp", json: ["_rev": "0-1", "seq": "2"], headers: server.auth)
            let missing = try await server.client.send("DELETE", "/db/_local/cp", headers: server.auth)
            #expect(missing.status == 409)
            #expect(try missing.json().objectValue?["error"] == "conflict")
            #expect(try await server.client.send("DELETE", "/db/_local/cp?rev=0-1", headers: server.auth).status == 409)
            #expect(try await server.client.send("DELETE", "/db/_local/cp?rev=zz", headers: server.auth).status == 400)
            #expect(try await server.client.send("GET", "/db/_local/cp").json().objectValue?["seq"] == "2")
            let deleted = try await server.client.send("DELETE", "/db/_local/cp", headers: server.auth.merging(["If-Match": "\"0-2\""]) { $1 })
            #expect(deleted.status == 200)
            #expect(try await server.client.send("GET", "/db/_local/cp").status == 404)
            #expect(try await server.client.send("DELETE", "/db/_local/cp?rev=0-2", headers: server.auth).status == 404)
        }
    }

    @Test("_bulk_get answers multipart/mixed when the client does not ask for JSON")
    func bulkGetMultipart() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            _ = try await server.client.send("PUT", "/db", headers: server.auth)
            _ = try await server.client.send("PUT", "/db/a", json: ["v": 1], headers: server.auth)
            let reply = try await server.client.send(
                "POST", "/db/_bulk_get", headers: ["Content-Type": "application/json", "Accept": "multipart/mixed"],
                body: Data(#"{"docs":[{"id":"a"}]}"#.utf8))
            let contentType = try #require(reply.header("Content-Type"))
            #expect(contentType.hasPrefix("multipart/mixed"))
            let found = try MultipartTestParser.attachmentParts(reply.body, contentType: contentType)
            #expect(found.json?.objectValue?["_id"] == "a")
        }
    }

    @Test("A session cookie past half its lifetime is renewed with a fresh Set-Cookie, and refused past all of it")
    func cookieRenewal() async throws {
        // The server's session clock is the test's: it moves on by the cookie's age instead of
        // the test waiting a minute for it.
        let clock = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        try await withServer(TestServer.start(anonymous: .reads) {
            $0.sessionLifetime = 60
            $0.sessionClock = { clock.withLock { $0 } }
        }) { server in
            let login = try await server.client.send("POST", "/_session", json: ["name": "admin", "password": "password"])
            let cookie = String(try #require(login.header("Set-Cookie")).split(separator: ";")[0])
            let fresh = try await server.client.send("GET", "/_session", headers: ["Cookie": cookie])
            #expect(fresh.header("Set-Cookie") == nil)
            // At half its lifetime exactly it is not renewed yet; a second later it is.
            clock.withLock { $0 += 30 }
            #expect(try await server.client.send("GET", "/_session", headers: ["Cookie": cookie]).header("Set-Cookie") == nil)
            clock.withLock { $0 += 1 }
            let renewed = try await server.client.send("GET", "/_session", headers: ["Cookie": cookie])
            let renewal = try #require(renewed.header("Set-Cookie"), "status \(renewed.status): \(String(decoding: renewed.body, as: UTF8.self))")
            #expect(renewal.hasPrefix("AuthSession=") && renewal.contains("Max-Age=60"))
            #expect(try renewed.json().objectValue?["userCtx"]?.objectValue?["name"] == "admin")
            // Past its whole lifetime the old cookie is refused; the renewed one still works.
            clock.withLock { $0 += 30 }
            let expired = try await server.client.send("PUT", "/db", headers: ["Cookie": cookie])
            #expect(expired.status == 401, "status \(expired.status)")
            let renewedCookie = String(renewal.split(separator: ";")[0])
            #expect(try await server.client.send("PUT", "/db", headers: ["Cookie": renewedCookie]).status == 201)
        }
    }

    @Test("A continuous feed with heartbeats streams changes as they happen and ends when the server stops")
    func continuousUntilStop() async throws {
        let server = try await TestServer.start(anonymous: .reads)
        _ = try await server.client.send("PUT", "/db", headers: server.auth)
        let started = ContinuousClock.now
        let port = try #require(server.server.port)
        // The feed is open once it has sent its first heartbeat; the change is streamed once
        // its line has arrived.
        let feed = try await RawHTTPConnection.openFeed("/db/_changes?feed=continuous&heartbeat=100&since=now", port: port)
        _ = try await server.client.send("PUT", "/db/live", json: ["v": 1], headers: server.auth)
        _ = try await feed.read(until: { String(decoding: $0, as: UTF8.self).contains("\"live\"") }, timeout: 60)
        await server.stop()
        let reply = try await feed.readStreamedReply(timeout: 60)
        // With heartbeats the feed's own timeout is a day: ending at all means the stop ended
        // it. The bound is loose because every test of the run shares the machine.
        #expect(ContinuousClock.now - started < .seconds(60))
        let text = String(decoding: reply.body, as: UTF8.self)
        let lines = text.split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 2, "\(text)")
        #expect(lines.first?.contains("\"live\"") == true)
        #expect(lines.last?.contains("last_seq") == true)
        // A heartbeat is a bare newline: more newlines than lines means at least one came.
        #expect(text.filter { $0 == "\n" }.count > lines.count, "heartbeat newlines expected: \(text)")
    }

    @Test("CORS headers and preflights only for configured origins")
    func cors() async throws {
        try await withServer(TestServer.start(anonymous: .reads) { $0.corsOrigins = ["http://app.example"] }) { server in
            let preflight = try await server.client.send(
                "OPTIONS", "/db/_bulk_docs",
                headers: ["Origin": "http://app.example", "Access-Control-Request-Method": "POST"])
            #expect((200..<300).contains(preflight.status))
            #expect(preflight.header("Access-Control-Allow-Origin") == "http://app.example")
            #expect(preflight.header("Access-Control-Allow-Credentials") == "true")
            #expect(preflight.header("Access-Control-Allow-Methods")?.contains("POST") == true)
            let allowed = try await server.client.send("GET", "/", headers: ["Origin": "http://app.example"])
            #expect(allowed.header("Access-Control-Allow-Origin") == "http://app.example")
            #expect(allowed.header("Access-Control-Allow-Credentials") == "true")
            #expect(allowed.header("Access-Control-Expose-Headers")?.contains("etag") == true)
            let other = try await server.client.send("GET", "/", headers: ["Origin": "http://evil.example"])
            #expect(other.header("Access-Control-Allow-Origin") == nil)
            let otherPreflight = try await server.client.send(
                "OPTIONS", "/db/_bulk_docs",
                headers: ["Origin": "http://evil.example", "Access-Control-Request-Method": "POST"])
            #expect(otherPreflight.header("Access-Control-Allow-Origin") == nil)
        }
    }
}
