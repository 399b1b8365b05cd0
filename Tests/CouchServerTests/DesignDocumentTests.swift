import InteropSupport
import CouchServer
import DocumentStore
import Foundation
import Testing
import TestSupport
import DocumentFormat

/// `_design/<name>` documents: stored, served under CouchDB's URL forms with its status codes,
/// and listed by every endpoint that lists documents; other `_` IDs stay refused.
@Suite("CouchServer design documents")
struct DesignDocumentTests {
    static let design: JSONValue = ["language": "javascript", "views": ["byName": ["map": "function(doc){ emit(doc.name, null) }"]]]

    @Test("PUT, GET, attachments and DELETE under /{db}/_design/{name}, with CouchDB's status codes")
    func roundTrip() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/app", headers: server.auth).status == 201)

            let put = try await client.send("PUT", "/app/_design/recipes", json: Self.design, headers: server.auth)
            #expect(put.status == 201)
            let created = try put.json().objectValue!
            #expect(created["id"] == "_design/recipes" && created["ok"] == true)
            let rev1 = try #require(created["rev"]?.stringValue)
            #expect(put.header("Location")?.hasSuffix("/app/_design/recipes") == true)

            let get = try await client.send("GET", "/app/_design/recipes")
            #expect(get.status == 200)
            let document = try get.json().objectValue!
            #expect(document["_id"] == "_design/recipes" && document["_rev"] == .string(rev1))
            #expect(document["views"] == Self.design.objectValue!["views"])
            // The slash may also come encoded.
            #expect(try await client.send("GET", "/app/_design%2Frecipes").json().objectValue?["_id"] == "_design/recipes")

            // A stale revision conflicts; the current one updates.
            var update = Self.design.objectValue!
            update["_rev"] = "1-00000000000000000000000000000000"
            #expect(try await client.send("PUT", "/app/_design/recipes", json: .object(update), headers: server.auth).status == 409)
            update["_rev"] = .string(rev1)
            update["language"] = "query"
            let updated = try await client.send("PUT", "/app/_design/recipes", json: .object(update), headers: server.auth)
            #expect(updated.status == 201)
            let rev2 = try #require(try updated.json().objectValue?["rev"]?.stringValue)

            // An attachment under the design document.
            var headers = server.auth
            headers["Content-Type"] = "text/plain"
            let attached = try await client.send("PUT", "/app/_design/recipes/readme.txt?rev=\(rev2)", headers: headers,
                                                 body: Data("how to use".utf8))
            #expect(attached.status == 201)
            let rev3 = try #require(try attached.json().objectValue?["rev"]?.stringValue)
            let readme = try await client.send("GET", "/app/_design/recipes/readme.txt")
            #expect(readme.status == 200 && readme.body == Data("how to use".utf8))

            let deleted = try await client.send("DELETE", "/app/_design/recipes?rev=\(rev3)", headers: server.auth)
            #expect(deleted.status == 200)
            #expect(try deleted.json().objectValue?["id"] == "_design/recipes")
            let gone = try await client.send("GET", "/app/_design/recipes")
            #expect(gone.status == 404)
            #expect(try gone.json().objectValue?["reason"] == "deleted")
            #expect(try await client.send("GET", "/app/_design/nothing").status == 404)
        }
    }

    @Test("Other IDs starting with _ are refused with 400 illegal_docid")
    func otherUnderscoreIDsAreRefused() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/app", headers: server.auth).status == 201)
            let foo = try await client.send("PUT", "/app/_foo", json: ["a": 1], headers: server.auth)
            #expect(foo.status == 400)
            #expect(try foo.json().objectValue?["error"] == "illegal_docid")
            let empty = try await client.send("POST", "/app/_bulk_docs", json: ["docs": [["_id": "_design/"]]], headers: server.auth)
            #expect(empty.status == 400)
            #expect(try empty.json().objectValue?["error"] == "illegal_docid")
            let posted = try await client.send("POST", "/app", json: ["_id": "_designer"], headers: server.auth)
            #expect(posted.status == 400)
            #expect(try await client.send("GET", "/app").json().objectValue?["doc_count"] == 0)
        }
    }

    @Test("_all_docs, _changes, _bulk_get, _revs_diff and _bulk_docs include design documents")
    func listedEverywhere() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/app", headers: server.auth).status == 201)
            let written = try await client.send("POST", "/app/_bulk_docs", json: ["docs": [
                ["_id": "_design/a", "views": [:]],
                ["_id": "plain", "name": "x"],
            ]], headers: server.auth)
            #expect(written.status == 201)
            let results = try written.json().arrayValue ?? []
            #expect(results.count == 2 && results.allSatisfy { $0.objectValue?["ok"] == true })
            let rev = try #require(results.first { $0.objectValue?["id"] == "_design/a" }?.objectValue?["rev"]?.stringValue)

            let allDocs = try await client.send("GET", "/app/_all_docs").json().objectValue!
            #expect(Set(allDocs["rows"]!.arrayValue!.compactMap { $0.objectValue?["id"]?.stringValue }) == ["_design/a", "plain"])
            let changes = try await client.send("GET", "/app/_changes?style=all_docs").json().objectValue!
            #expect(changes["results"]!.arrayValue!.contains { $0.objectValue?["id"] == "_design/a" })
            let bulkGet = try await client.send("POST", "/app/_bulk_get?revs=true", json: ["docs": [["id": "_design/a", "rev": .string(rev)]]],
                                                headers: ["Accept": "application/json"]).json().objectValue!
            let fetched = bulkGet["results"]?.arrayValue?.first?.objectValue?["docs"]?.arrayValue?.first?.objectValue?["ok"]?.objectValue
            #expect(fetched?["_id"] == "_design/a" && fetched?["_rev"] == .string(rev))
            let diff = try await client.send("POST", "/app/_revs_diff", json: ["_design/a": [.string(rev), "2-abc"]],
                                             headers: server.auth).json().objectValue!
            #expect(diff["_design/a"]?.objectValue?["missing"] == ["2-abc"])
            let replicated = try await client.send("POST", "/app/_bulk_docs", json: [
                "new_edits": false,
                "docs": [["_id": "_design/b", "_rev": "1-0123456789abcdef0123456789abcdef", "views": [:]]],
            ], headers: server.auth)
            #expect(replicated.status == 201)
            #expect(try replicated.json().arrayValue == [])
            #expect(try await client.send("GET", "/app/_design/b").status == 200)
            #expect(try await client.send("GET", "/app").json().objectValue?["doc_count"] == 3)
        }
    }

    @Test("GET /{db}/_design/{name}/_info answers CouchDB's shape, for a design document with views or with nothing")
    func designInfo() async throws {
        try await withServer(TestServer.start()) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/app", headers: server.auth).status == 201)
            #expect(try await client.send("PUT", "/app/_design/plain", json: [:], headers: server.auth).status == 201)
            #expect(try await client.send("PUT", "/app/_design/recipes", json: Self.design, headers: server.auth).status == 201)
            for name in ["plain", "recipes"] {
                let reply = try await client.send("GET", "/app/_design/\(name)/_info", headers: server.auth)
                #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
                let object = try #require(try reply.json().objectValue)
                #expect(object["name"] == .string(name))
                let index = try #require(object["view_index"]?.objectValue)
                // The members CouchDB 3.4.3 sends (seen from a live one).
                #expect(Set(index.keys) == ["updates_pending", "waiting_commit", "waiting_clients", "updater_running", "update_seq",
                                            "sizes", "signature", "purge_seq", "language", "compact_running", "collator_versions"])
                #expect(index["language"] == "javascript")
                #expect(index["compact_running"] == false)
                #expect(index["update_seq"] == 2)
            }
            let missing = try await client.send("GET", "/app/_design/nope/_info", headers: server.auth)
            #expect(missing.status == 404)
            #expect(try missing.json() == ["error": "not_found", "reason": "missing"])
        }
    }
}
