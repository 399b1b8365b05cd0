import CouchServer
import DocumentFormat
import Foundation
import InteropSupport
import Testing
import TestSupport

/// `_find` paging by bookmark and its order, Mango indexes kept in design documents
/// (`GET`/`POST /{db}/_index`, `DELETE /{db}/_index/…`) and `_explain`, without CouchDB.
@Suite("CouchServer Mango: bookmarks, order, indexes and _explain")
struct MangoAPITests {
    static func ids(_ reply: HTTPReply) throws -> [String] {
        try reply.json().objectValue?["docs"]?.arrayValue?.compactMap { $0.objectValue?["_id"]?.stringValue } ?? []
    }

    static func setUp(_ server: TestServer, count: Int = 10) async throws {
        #expect(try await server.client.send("PUT", "/m", headers: server.auth).status == 201)
        let docs: [JSONValue] = (0..<count).map { i in ["_id": .string(String(format: "d%02d", i)), "n": .int(Int64(i % 3))] }
        #expect(try await server.client.send("POST", "/m/_bulk_docs", json: ["docs": .array(docs)], headers: server.auth).status == 201)
    }

    @Test("Paging by bookmark resumes exactly after the last row, also when documents change between pages")
    func bookmarkPaging() async throws {
        try await withServer(TestServer.start()) { server in
            try await Self.setUp(server)
            let client = server.client
            let query: JSONObject = ["selector": ["n": ["$gte": 0]], "sort": [["n": "asc"]], "limit": 3]
            let first = try await client.send("POST", "/m/_find", json: .object(query), headers: server.auth)
            #expect(first.status == 200)
            // Ties on n are ordered by _id.
            #expect(try Self.ids(first) == ["d00", "d03", "d06"])
            var bookmark = try #require(try first.json().objectValue?["bookmark"]?.stringValue)
            #expect(bookmark != "nil")

            // Between pages: a document before the bookmark is added, a seen one deleted,
            // one after the bookmark added. Only the last shows up, nothing repeats.
            let d03 = try await client.send("GET", "/m/d03", headers: server.auth).json().objectValue?["_rev"]?.stringValue ?? ""
            #expect(try await client.send("DELETE", "/m/d03?rev=\(d03)", headers: server.auth).status == 200)
            #expect(try await client.send("PUT", "/m/d05a", json: ["n": 0], headers: server.auth).status == 201)
            #expect(try await client.send("PUT", "/m/d10", json: ["n": 0], headers: server.auth).status == 201)

            var seen = try Self.ids(first)
            for _ in 0..<10 {
                var next = query
                next["bookmark"] = .string(bookmark)
                let page = try await client.send("POST", "/m/_find", json: .object(next), headers: server.auth)
                #expect(page.status == 200)
                let ids = try Self.ids(page)
                seen += ids
                bookmark = try #require(try page.json().objectValue?["bookmark"]?.stringValue)
                if ids.count < 3 { break }
            }
            #expect(seen == ["d00", "d03", "d06", "d09", "d10", "d01", "d04", "d07", "d02", "d05", "d08"])
        }
    }

    @Test("A tampered, foreign or malformed bookmark gets CouchDB's 400 invalid_bookmark and changes nothing")
    func tamperedBookmark() async throws {
        try await withServer(TestServer.start()) { server in
            try await Self.setUp(server, count: 4)
            let client = server.client
            let first = try await client.send("POST", "/m/_find", json: ["selector": ["n": ["$gte": 0]], "sort": ["n"], "limit": 1],
                                              headers: server.auth)
            let bookmark = try #require(try first.json().objectValue?["bookmark"]?.stringValue)
            let bad: [JSONValue] = ["xyz", .string(bookmark + "!"), .string(String(bookmark.dropLast(3))), 12,
                                    .string(String(repeating: "A", count: 70_000))]
            for value in bad {
                let reply = try await client.send("POST", "/m/_find", json: ["selector": ["n": ["$gte": 0]], "sort": ["n"], "bookmark": value],
                                                  headers: server.auth)
                #expect(reply.status == 400)
                #expect(try reply.json().objectValue?["error"] == "invalid_bookmark")
            }
            #expect(try await client.send("POST", "/m/_find", json: ["selector": ["n": 1], "bookmark": "xyz"], headers: server.auth).json()
                .objectValue?["reason"] == "Invalid bookmark value: \"xyz\"")
            // A bookmark of a query with another number of sort fields is refused too.
            let other = try await client.send("POST", "/m/_find", json: ["selector": ["n": ["$gte": 0]], "bookmark": .string(bookmark)],
                                              headers: server.auth)
            #expect(other.status == 400)
            // "nil" starts from the beginning.
            let fromStart = try await client.send("POST", "/m/_find", json: ["selector": ["n": ["$gte": 0]], "bookmark": "nil"], headers: server.auth)
            #expect(try Self.ids(fromStart) == ["d00", "d01", "d02", "d03"])
            #expect(try await client.send("GET", "/m", headers: server.auth).json().objectValue?["doc_count"] == 4)
        }
    }

    @Test("Without sort results come in _id order; sort on _id desc is honoured; a warning tells when no index served")
    func orderAndWarning() async throws {
        try await withServer(TestServer.start()) { server in
            #expect(try await server.client.send("PUT", "/m", headers: server.auth).status == 201)
            let client = server.client
            for id in ["c", "a", "d", "b"] {
                #expect(try await client.send("PUT", "/m/\(id)", json: ["n": 1, "k": .string(id)], headers: server.auth).status == 201)
            }
            let plain = try await client.send("POST", "/m/_find", json: ["selector": ["n": 1]], headers: server.auth)
            #expect(try Self.ids(plain) == ["a", "b", "c", "d"])
            #expect(try plain.json().objectValue?["warning"] == "No matching index found, create an index to optimize query time.")
            let descending = try await client.send("POST", "/m/_find", json: ["selector": ["n": 1], "sort": [["_id": "desc"]], "limit": 3],
                                                   headers: server.auth)
            #expect(try Self.ids(descending) == ["d", "c", "b"])
            let bookmark = try #require(try descending.json().objectValue?["bookmark"]?.stringValue)
            let rest = try await client.send("POST", "/m/_find", json: ["selector": ["n": 1], "sort": [["_id": "desc"]], "bookmark": .string(bookmark)],
                                             headers: server.auth)
            #expect(try Self.ids(rest) == ["a"])

            #expect(try await client.send("POST", "/m/_index", json: ["index": ["fields": ["k"]]], headers: server.auth).status == 200)
            let indexed = try await client.send("POST", "/m/_find", json: ["selector": ["k": ["$gt": "a"]], "sort": ["k"]], headers: server.auth)
            #expect(try Self.ids(indexed) == ["b", "c", "d"])
            #expect(try indexed.json().objectValue?["warning"] == nil)
        }
    }

    @Test("Indexes live in query design documents: created with ddoc and name, listed, deleted")
    func indexesAsDesignDocuments() async throws {
        try await withServer(TestServer.start()) { server in
            try await Self.setUp(server, count: 3)
            let client = server.client
            let empty = try await client.send("GET", "/m/_index", headers: server.auth).json()
            #expect(empty == ["total_rows": 1, "indexes": [["ddoc": .null, "name": "_all_docs", "type": "special",
                                                             "def": ["fields": [["_id": "asc"]]]]]])
            let created = try await client.send("POST", "/m/_index", json: ["index": ["fields": ["n"]], "ddoc": "dd", "name": "by-n"],
                                                headers: server.auth)
            #expect(try created.json() == ["result": "created", "id": "_design/dd", "name": "by-n"])
            let again = try await client.send("POST", "/m/_index", json: ["index": ["fields": ["n"]], "ddoc": "_design/dd", "name": "by-n"],
                                              headers: server.auth)
            #expect(try again.json() == ["result": "exists", "id": "_design/dd", "name": "by-n"])

            let design = try await client.send("GET", "/m/_design/dd", headers: server.auth).json().objectValue ?? [:]
            #expect(design["language"] == "query")
            #expect(design["views"] == ["by-n": ["map": ["fields": ["n": "asc"], "partial_filter_selector": [:]], "reduce": "_count",
                                                 "options": ["def": ["fields": ["n"]]]]])
            let all = try await client.send("GET", "/m/_all_docs", headers: server.auth).json().objectValue?["rows"]?.arrayValue ?? []
            #expect(all.contains { $0.objectValue?["id"] == "_design/dd" })

            let listed = try await client.send("GET", "/m/_index", headers: server.auth).json().objectValue
            #expect(listed?["total_rows"] == 2)
            #expect(listed?["indexes"]?.arrayValue?.last == ["ddoc": "_design/dd", "name": "by-n", "type": "json", "partitioned": false,
                                                              "def": ["fields": [["n": "asc"]]]])

            let mixed = try await client.send("POST", "/m/_index", json: ["index": ["fields": ["a", ["b": "desc"]]]], headers: server.auth)
            #expect(mixed.status == 400)
            #expect(try mixed.json().objectValue?["error"] == "unsupported_mixed_sort")
            #expect(try await client.send("PUT", "/m/_index", json: [:], headers: server.auth).status == 405)
            #expect(try await client.send("GET", "/m/_index/dd/json/by-n", headers: server.auth).status == 405)

            #expect(try await client.send("DELETE", "/m/_index/dd/json/by-n", headers: server.auth).json() == ["ok": true])
            let gone = try await client.send("GET", "/m/_design/dd", headers: server.auth)
            #expect(gone.status == 404)
            #expect(try gone.json().objectValue?["reason"] == "deleted")
            let missing = try await client.send("DELETE", "/m/_index/_design/dd/json/by-n", headers: server.auth)
            #expect(missing.status == 404)
            #expect(try await client.send("GET", "/m/_index", headers: server.auth).json().objectValue?["total_rows"] == 1)
        }
    }

    @Test("_explain answers CouchDB's shape, naming the index a query would read")
    func explain() async throws {
        try await withServer(TestServer.start()) { server in
            try await Self.setUp(server, count: 3)
            let client = server.client
            let unindexed = try await client.send("POST", "/m/_explain", json: ["selector": ["n": 1], "limit": 2], headers: server.auth)
            #expect(unindexed.status == 200)
            let plain = try unindexed.json().objectValue ?? [:]
            #expect(plain["dbname"] == "m" && plain["limit"] == 2 && plain["skip"] == 0 && plain["fields"] == [])
            #expect(plain["index"]?.objectValue?["name"] == "_all_docs")
            #expect(plain["selector"] == ["n": ["$eq": 1]] && plain["opts"]?.objectValue?["limit"] == 2)
            #expect(try await client.send("POST", "/m/_index", json: ["index": ["fields": ["n"]], "ddoc": "dd", "name": "by-n"],
                                          headers: server.auth).status == 200)
            let indexed = try await client.send("POST", "/m/_explain", json: ["selector": ["n": ["$gt": 0]], "sort": ["n"], "fields": ["_id"]],
                                                headers: server.auth).json().objectValue ?? [:]
            #expect(indexed["index"]?.objectValue?["ddoc"] == "_design/dd" && indexed["index"]?.objectValue?["name"] == "by-n")
            #expect(indexed["fields"] == ["_id"])
            #expect(try await client.send("POST", "/m/_explain", json: [:], headers: server.auth).status == 400)
            #expect(try await client.send("GET", "/m/_explain", headers: server.auth).status == 405)
        }
    }
}
