import CouchServer
import DocumentFormat
import Foundation
import InteropSupport
import Testing
import TestSupport

/// Endpoints and details other people's CouchDB clients rely on, without CouchDB: `COPY`,
/// `_missing_revs`, `If-Match` on attachment writes, `batch=ok`, query-string decoding,
/// `Accept` negotiation, revision order for non-hex revision IDs and the 501 answers for
/// design document functions.
@Suite("CouchServer endpoints clients use")
struct ClientEndpointTests {
    @Test("COPY copies a document with its attachments to the Destination, as CouchDB does")
    func copy() async throws {
        try await withServer(TestServer.start()) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/c", headers: server.auth).status == 201)
            let bytes = Data("note".utf8).base64EncodedString()
            #expect(try await client.send("PUT", "/c/src", json: ["v": 1, "_attachments": ["a.txt": ["content_type": "text/plain", "data": .string(bytes)]]],
                                          headers: server.auth).status == 201)
            var headers = server.auth
            headers["Destination"] = "dst%20one"
            let copied = try await client.send("COPY", "/c/src", headers: headers)
            #expect(copied.status == 201)
            let reply = try copied.json().objectValue ?? [:]
            #expect(reply["ok"] == true && reply["id"] == "dst one")
            let copy = try await client.send("GET", "/c/dst%20one/a.txt", headers: server.auth)
            #expect(copy.status == 200 && copy.body == Data("note".utf8))
            #expect(try await client.send("GET", "/c/dst%20one", headers: server.auth).json().objectValue?["v"] == 1)
            // The destination exists: 409 without its current rev, 201 with it.
            #expect(try await client.send("COPY", "/c/src", headers: headers).status == 409)
            headers["Destination"] = "dst%20one?rev=" + (reply["rev"]?.stringValue ?? "")
            #expect(try await client.send("COPY", "/c/src", headers: headers).status == 201)
            headers["Destination"] = "other"
            #expect(try await client.send("COPY", "/c/nothing", headers: headers).status == 404)
            let noDestination = try await client.send("COPY", "/c/src", headers: server.auth)
            #expect(noDestination.status == 400)
            #expect(try noDestination.json().objectValue?["reason"] == "Destination header is mandatory for COPY.")
        }
    }

    @Test("_missing_revs lists the revisions the database lacks")
    func missingRevs() async throws {
        try await withServer(TestServer.start()) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/c", headers: server.auth).status == 201)
            let rev = try await client.send("PUT", "/c/a", json: ["v": 1], headers: server.auth).json().objectValue?["rev"]?.stringValue ?? ""
            let other = "2-" + String(repeating: "b", count: 32)
            let reply = try await client.send("POST", "/c/_missing_revs", json: ["a": [.string(rev), .string(other)], "z": ["1-abc"]],
                                              headers: server.auth)
            #expect(try reply.json() == ["missing_revs": ["a": [.string(other)], "z": ["1-abc"]]])
            #expect(try await client.send("POST", "/c/_missing_revs", json: [], headers: server.auth).status == 400)
            #expect(try await client.send("GET", "/c/_missing_revs", headers: server.auth).status == 405)
        }
    }

    @Test("If-Match names the revision of an attachment write; batch=ok answers 202 without a rev")
    func ifMatchAndBatch() async throws {
        try await withServer(TestServer.start()) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/c", headers: server.auth).status == 201)
            let rev = try await client.send("PUT", "/c/a", json: ["v": 1], headers: server.auth).json().objectValue?["rev"]?.stringValue ?? ""
            var headers = server.auth
            headers["Content-Type"] = "text/plain"
            headers["If-Match"] = "\"\(rev)\""
            #expect(try await client.send("PUT", "/c/a/n.txt", headers: headers, body: Data("x".utf8)).status == 201)
            let batched = try await client.send("PUT", "/c/b?batch=ok", json: ["v": 1], headers: server.auth)
            #expect(batched.status == 202)
            #expect(try batched.json() == ["ok": true, "id": "b"])
            let posted = try await client.send("POST", "/c?batch=ok", json: ["_id": "p"], headers: server.auth)
            #expect(posted.status == 202)
            #expect(try posted.json() == ["ok": true, "id": "p"])
            #expect(try await client.send("GET", "/c/b", headers: server.auth).status == 200)
        }
    }

    @Test("Query strings: + is a space, a trailing \\u0000 key is kept, booleans in any case")
    func queryStrings() async throws {
        try await withServer(TestServer.start()) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/c", headers: server.auth).status == 201)
            for id in ["a", "b", "c"] { #expect(try await client.send("PUT", "/c/\(id)", json: [:], headers: server.auth).status == 201) }
            func ids(_ path: String) async throws -> [String] {
                let reply = try await client.send("GET", path, headers: server.auth)
                #expect(reply.status == 200, "\(path): \(String(decoding: reply.body, as: UTF8.self))")
                return try reply.json().objectValue?["rows"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } ?? []
            }
            #expect(try await ids("/c/_all_docs?keys=%5B%22a%22,+%22c%22%5D") == ["a", "c"])
            #expect(try await ids("/c/_all_docs?startkey=%22a%5Cu0000%22") == ["b", "c"])
            #expect(try await ids("/c/_all_docs?endkey=%22b%5Cu0000%22&descending=true") == ["c"])
            #expect(try await ids("/c/_all_docs?descending=True&limit=1") == ["c"])
            #expect(try await ids("/c/_all_docs?descending=TRUE&limit=1") == ["c"])
            #expect(try await client.send("GET", "/c/_all_docs?descending=yes", headers: server.auth).status == 400)
            let none = try await client.send("GET", "/c/_all_docs?key=%22zz%22", headers: server.auth).json().objectValue
            #expect(none?["rows"] == [] && none?["offset"] == 3)
        }
    }

    @Test("_bulk_get answers JSON unless multipart is named; open_revs JSON for text/html")
    func acceptNegotiation() async throws {
        try await withServer(TestServer.start()) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/c", headers: server.auth).status == 201)
            #expect(try await client.send("PUT", "/c/a", json: ["v": 1], headers: server.auth).status == 201)
            for (accept, multipart) in [("*/*", false), ("application/json", false), ("text/html", false),
                                        ("multipart/mixed", true), ("multipart/*", true)] {
                var headers = server.auth
                headers["Accept"] = accept
                let reply = try await client.send("POST", "/c/_bulk_get", json: ["docs": [["id": "a"]]], headers: headers)
                #expect(reply.header("Content-Type")?.hasPrefix("multipart/mixed") == multipart, "Accept: \(accept)")
            }
            for (accept, multipart) in [("*/*", true), ("application/json", false), ("text/html", false), ("multipart/mixed", true)] {
                var headers = server.auth
                headers["Accept"] = accept
                let reply = try await client.send("GET", "/c/a?open_revs=all", headers: headers)
                #expect(reply.header("Content-Type")?.hasPrefix("multipart/mixed") == multipart, "Accept: \(accept)")
            }
        }
    }

    @Test("Conflicts between revisions that are not 32 hex digits: CouchDB's winner and _conflicts order")
    func nonHexRevisionOrder() async throws {
        try await withServer(TestServer.start()) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/c", headers: server.auth).status == 201)
            let hex = String(repeating: "f", count: 32)
            let low = String(repeating: "1", count: 32)
            func branch(_ hash: String) -> JSONValue {
                ["_id": "x", "_rev": .string("2-" + hash), "v": .string(hash),
                 "_revisions": ["start": 2, "ids": [.string(hash), "base"]]]
            }
            let written = try await client.send("POST", "/c/_bulk_docs", json: ["new_edits": false, "docs": [branch("zz"), branch(hex), branch(low), branch("a")]],
                                                headers: server.auth)
            #expect(written.status == 201)
            let doc = try await client.send("GET", "/c/x?conflicts=true", headers: server.auth).json().objectValue ?? [:]
            // As 16 bytes, ff… is greater than "zz" (0x7a 0x7a), then "a" (0x61), then 11… (0x11 …).
            #expect(doc["_rev"] == .string("2-" + hex))
            #expect(doc["_conflicts"] == ["2-zz", "2-a", .string("2-" + low)])
        }
    }

    @Test("_purge removes leaf revisions, the winner is chosen again, a document without revisions is gone")
    func purge() async throws {
        try await withServer(TestServer.start()) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/c", headers: server.auth).status == 201)
            func branch(_ hash: String) -> JSONValue {
                ["_id": "x", "_rev": .string("2-" + hash), "v": .string(hash), "_revisions": ["start": 2, "ids": [.string(hash), "base"]]]
            }
            #expect(try await client.send("POST", "/c/_bulk_docs", json: ["new_edits": false, "docs": [branch("zz"), branch("a")]],
                                          headers: server.auth).status == 201)
            let rev = try await client.send("PUT", "/c/y", json: ["v": 1], headers: server.auth).json().objectValue?["rev"]?.stringValue ?? ""
            let reply = try await client.send("POST", "/c/_purge", json: ["x": ["2-zz", "1-base", "9-nope"], "nodoc": ["1-abc"]], headers: server.auth)
            #expect(reply.status == 201)
            #expect(try reply.json() == ["purge_seq": .null, "purged": ["x": ["2-zz"], "nodoc": []]])
            let x = try await client.send("GET", "/c/x?conflicts=true", headers: server.auth).json().objectValue ?? [:]
            #expect(x["_rev"] == "2-a" && x["_conflicts"] == nil)

            #expect(try await client.send("POST", "/c/_purge", json: ["y": [.string(rev)]], headers: server.auth).status == 201)
            let gone = try await client.send("GET", "/c/y", headers: server.auth)
            #expect(gone.status == 404)
            #expect(try gone.json().objectValue?["reason"] == "missing")
            #expect(try await client.send("GET", "/c", headers: server.auth).json().objectValue?["doc_count"] == 1)
            let changes = try await client.send("GET", "/c/_changes", headers: server.auth).json().objectValue?["results"]?.arrayValue ?? []
            #expect(changes.compactMap { $0.objectValue?["id"]?.stringValue } == ["x"])
            // The ID can be used again from scratch.
            #expect(try await client.send("PUT", "/c/y", json: ["v": 2], headers: server.auth).status == 201)

            #expect(try await client.send("POST", "/c/_purge", json: ["x": "2-a"], headers: server.auth).status == 400)
            #expect(try await client.send("POST", "/c/_purge", json: [], headers: server.auth).status == 400)
            #expect(try await client.send("GET", "/c/_purge", headers: server.auth).status == 405)
        }
    }

    @Test("PUT /{db}?q= is reported in GET /{db}'s cluster.q; a q that is not a positive integer gets 400")
    func shardCount() async throws {
        try await withServer(TestServer.start()) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/c?q=16", headers: server.auth).status == 201)
            #expect(try await client.send("GET", "/c", headers: server.auth).json().objectValue?["cluster"]?.objectValue?["q"] == 16)
            #expect(try await client.send("PUT", "/d", headers: server.auth).status == 201)
            #expect(try await client.send("GET", "/d", headers: server.auth).json().objectValue?["cluster"]?.objectValue?["q"] == 1)
            for bad in ["0", "-1", "x", "99999999999999999999"] {
                let reply = try await client.send("PUT", "/e?q=\(bad)", headers: server.auth)
                #expect(reply.status == 400)
                #expect(try reply.json().objectValue?["reason"] == "The `q` value should be a positive integer.")
            }
            #expect(try await client.send("GET", "/e", headers: server.auth).status == 404)
        }
    }

    @Test("_changes?feed=eventsource sends Server-Sent Events and resumes after Last-Event-ID")
    func eventSource() async throws {
        try await withServer(TestServer.start()) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/c", headers: server.auth).status == 201)
            for id in ["a", "b", "c"] { #expect(try await client.send("PUT", "/c/\(id)", json: [:], headers: server.auth).status == 201) }
            let all = try await client.send("GET", "/c/_changes?feed=eventsource&limit=3", headers: server.auth)
            #expect(all.header("Content-Type") == "text/event-stream")
            let text = String(decoding: all.body, as: UTF8.self)
            #expect(text.hasPrefix("data: {"))
            #expect(text.contains("\nid: \"1\"\n\n") && text.contains("\"id\":\"c\""))
            var headers = server.auth
            headers["Last-Event-ID"] = "\"2\""
            let resumed = String(decoding: try await client.send("GET", "/c/_changes?feed=eventsource&limit=1", headers: headers).body, as: UTF8.self)
            #expect(resumed.contains("\"id\":\"c\"") && !resumed.contains("\"id\":\"b\""))
            // In the query, for any feed.
            let normal = try await client.send("GET", "/c/_changes?last-event-id=2", headers: server.auth).json().objectValue
            #expect(normal?["results"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } == ["c"])
        }
    }

    @Test("Design document functions answer 501 not_implemented, naming what is missing and _find")
    func designFunctions() async throws {
        try await withServer(TestServer.start()) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/c", headers: server.auth).status == 201)
            #expect(try await client.send("PUT", "/c/_design/app", json: ["views": ["all": ["map": "function(doc){emit(doc._id)}"]]],
                                          headers: server.auth).status == 201)
            for (method, path) in [("GET", "/c/_design/app/_view/all"), ("POST", "/c/_design/app/_view/all"), ("GET", "/c/_design/app/_show/s/x"),
                                   ("GET", "/c/_design/app/_list/l/all"), ("POST", "/c/_design/app/_update/u"),
                                   ("GET", "/c/_design/app/_rewrite/x"), ("GET", "/c/_changes?filter=app/f"), ("GET", "/c/_changes?filter=_view&view=app/all")] {
                let reply = try await client.send(method, path, headers: server.auth)
                #expect(reply.status == 501, "\(method) \(path)")
                let body = try reply.json().objectValue ?? [:]
                #expect(body["error"] == "not_implemented")
                let reason = body["reason"]?.stringValue ?? ""
                #expect(reason.contains("_find") || reason.contains("_selector"), "\(reason)")
            }
            // The design document itself is still an ordinary document.
            #expect(try await client.send("GET", "/c/_design/app", headers: server.auth).status == 200)
            #expect(try await client.send("GET", "/nodb/_design/app/_view/all", headers: server.auth).status == 404)
        }
    }

    @Test("A function of a missing design document, or a view it does not define, is CouchDB's 404, not 501")
    func missingDesignFunctions() async throws {
        try await withServer(TestServer.start()) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/c", headers: server.auth).status == 201)
            #expect(try await client.send("PUT", "/c/_design/app", json: ["views": ["all": ["map": "function(doc){emit(doc._id)}"]]],
                                          headers: server.auth).status == 201)
            for (method, path, reason) in [("GET", "/c/_design/nope/_view/all", "missing"), ("POST", "/c/_design/nope/_update/u", "missing"),
                                           ("GET", "/c/_design/nope/_show/s", "missing"), ("GET", "/c/_design/app/_view/other", "missing_named_view")] {
                let reply = try await client.send(method, path, headers: server.auth)
                #expect(reply.status == 404, "\(method) \(path)")
                #expect(try reply.json() == ["error": "not_found", "reason": .string(reason)], "\(method) \(path)")
            }
            #expect(try await client.send("DELETE", "/c/_design/app?rev=\(try await client.send("GET", "/c/_design/app", headers: server.auth).json().objectValue?["_rev"]?.stringValue ?? "")",
                                          headers: server.auth).status == 200)
            #expect(try await client.send("GET", "/c/_design/app/_view/all", headers: server.auth).status == 404)
        }
    }
}
