import InteropSupport
import CouchServer
import DocumentStore
import Foundation
import Testing
import TestSupport
import DocumentFormat

/// Requests crafted to overflow, poison or probe the server: each gets CouchDB's error
/// shape and the server keeps answering.
@Suite("CouchServer request hardening")
struct RequestHardeningTests {
    /// The `error` member of a reply's body.
    static func error(_ reply: HTTPReply) throws -> String? { try reply.json().objectValue?["error"]?.stringValue }

    /// Proves the server is still up after a hostile request.
    static func expectAlive(_ server: TestServer) async throws {
        #expect(try await server.client.send("GET", "/").status == 200)
    }

    @Test("Limits, skips and feed numbers past 2^53 - 1 are refused with 400, never a crash")
    func outOfRangeNumbers() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            #expect(try await server.client.send("PUT", "/db1", headers: server.auth).status == 201)
            #expect(try await server.client.send("PUT", "/db1/a", json: ["n": 1], headers: server.auth).status == 201)

            let find = try await server.client.send("POST", "/db1/_find", json: [
                "selector": [:], "limit": 9_223_372_036_854_775_807, "skip": 1,
            ])
            #expect(find.status == 400)
            #expect(try Self.error(find) == "bad_request")
            let negative = try await server.client.send("POST", "/db1/_find", json: ["selector": [:], "skip": -1])
            #expect(negative.status == 400)
            let largest = try await server.client.send("POST", "/db1/_find", json: [
                "selector": [:], "limit": 9_007_199_254_740_991, "skip": 9_007_199_254_740_991,
            ])
            #expect(largest.status == 200)
            #expect(try largest.json().objectValue?["docs"]?.arrayValue?.isEmpty == true)

            for path in [
                "/db1/_all_docs?limit=9223372036854775807&skip=1",
                "/db1/_all_docs?skip=9007199254740992",
                "/db1/_changes?limit=9223372036854775807",
                "/db1/_changes?since=9223372036854775807",
                "/db1/_changes?feed=longpoll&heartbeat=9223372036854775807",
                "/db1/_changes?feed=longpoll&timeout=9223372036854775807",
            ] {
                let reply = try await server.client.send("GET", path)
                #expect(reply.status == 400, "\(path)")
                #expect(try ["bad_request", "query_parse_error"].contains(Self.error(reply)), "\(path)")
            }
            let allDocs = try await server.client.send("GET", "/db1/_all_docs?limit=9007199254740991&skip=9007199254740991")
            #expect(allDocs.status == 200)
            try await Self.expectAlive(server)
        }
    }

    @Test("A revision whose generation cannot be incremented is refused on write and cannot be edited")
    func revisionGenerationOverflow() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            #expect(try await server.client.send("PUT", "/db1", headers: server.auth).status == 201)

            let poisoned = try await server.client.send("POST", "/db1/_bulk_docs", json: [
                "new_edits": false, "docs": [["_id": "ovf", "_rev": "9223372036854775807-abc"]],
            ], headers: server.auth)
            #expect(poisoned.status == 400)
            let history = try await server.client.send("POST", "/db1/_bulk_docs", json: [
                "new_edits": false,
                "docs": [["_id": "ovf", "_rev": "9223372036854775807-abc",
                          "_revisions": ["start": 9_223_372_036_854_775_807, "ids": ["abc"]]]],
            ], headers: server.auth)
            #expect(history.status == 400)
            let put = try await server.client.send("PUT", "/db1/ovf", json: ["_rev": "9223372036854775807-abc"], headers: server.auth)
            #expect(put.status == 400)
            #expect(try Self.error(put) == "bad_request")
            #expect(try await server.client.send("GET", "/db1/ovf").status == 404)

            // The last generation there is may be stored, but nothing can follow it.
            let top = "\(RevisionID.maximumGeneration)-abc"
            let stored = try await server.client.send("POST", "/db1/_bulk_docs", json: [
                "new_edits": false, "docs": [["_id": "top", "_rev": .string(top)]],
            ], headers: server.auth)
            #expect(stored.status == 201)
            let edit = try await server.client.send("PUT", "/db1/top", json: ["_rev": .string(top), "x": 1], headers: server.auth)
            #expect(edit.status == 400)
            #expect(try Self.error(edit) == "bad_request")
            let delete = try await server.client.send("DELETE", "/db1/top?rev=\(top)", headers: server.auth)
            #expect(delete.status == 400)
            #expect(try await server.client.send("GET", "/db1/top").json().objectValue?["_rev"] == .string(top))

            let local = try await server.client.send("PUT", "/db1/_local/x", json: ["_rev": "0-9223372036854775807"], headers: server.auth)
            #expect(local.status == 400)
            try await Self.expectAlive(server)
        }
    }

    @Test("_local documents follow CouchDB's revision rules: create without _rev, update only with the current one")
    func localDocumentRevisions() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            #expect(try await server.client.send("PUT", "/db1", headers: server.auth).status == 201)

            let created = try await server.client.send("PUT", "/db1/_local/cp", json: ["seq": 1], headers: server.auth)
            #expect(created.status == 201)
            #expect(try created.json().objectValue?["rev"] == "0-1")

            for stale: JSONValue in [["seq": 2], ["seq": 2, "_rev": "0-0"], ["seq": 2, "_rev": "0-7"]] {
                let refused = try await server.client.send("PUT", "/db1/_local/cp", json: stale, headers: server.auth)
                #expect(refused.status == 409)
                #expect(try refused.json() == ["error": "conflict", "reason": "Document update conflict."])
            }
            let staleQuery = try await server.client.send("PUT", "/db1/_local/cp?rev=0-5", json: ["seq": 2], headers: server.auth)
            #expect(staleQuery.status == 409)

            let updated = try await server.client.send("PUT", "/db1/_local/cp", json: ["seq": 2, "_rev": "0-1"], headers: server.auth)
            #expect(updated.status == 201)
            #expect(try updated.json().objectValue?["rev"] == "0-2")
            let again = try await server.client.send("PUT", "/db1/_local/cp?rev=0-2", json: ["seq": 3], headers: server.auth)
            #expect(try again.json().objectValue?["rev"] == "0-3")
            let read = try await server.client.send("GET", "/db1/_local/cp").json().objectValue
            #expect(read?["seq"] == 3)
            #expect(read?["_rev"] == "0-3")

            // A revision for a document that does not exist names nothing to update.
            let phantom = try await server.client.send("PUT", "/db1/_local/none", json: ["_rev": "0-4"], headers: server.auth)
            #expect(phantom.status == 409)
        }
    }

    @Test("Database files and the server's UUID file are 0600 in a 0700 data directory; a name too long for a file is 400 without the path")
    func fileModesAndPathsInErrors() async throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("couchserver-modes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let dataDirectory = parent.appendingPathComponent("data")
        try await withServer(TestServer.start(anonymous: .reads) { $0.dataDirectory = dataDirectory }) { server in
            #expect(try await server.client.send("PUT", "/db1", headers: server.auth).status == 201)
            #expect(try await server.client.send("PUT", "/db1/a", json: ["n": 1], headers: server.auth).status == 201)

            func mode(_ path: String) throws -> Int {
                try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o777
            }
            #expect(try mode(dataDirectory.path) == 0o700)
            let all = try FileManager.default.contentsOfDirectory(atPath: dataDirectory.path)
            let files = all.filter { $0.hasPrefix("db1") || $0 == ".server-uuid" }
            #expect(files.contains("db1.couchdb") && files.contains(".server-uuid"), "\(all)")
            for file in files {
                #expect(try mode(dataDirectory.appendingPathComponent(file).path) == 0o600, "\(file)")
            }

            for name in ["a" + String(repeating: "/", count: 237), "a" + String(repeating: "$", count: 237)] {
                let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
                let reply = try await server.client.send("PUT", "/\(encoded)", headers: server.auth)
                let body = String(decoding: reply.body, as: UTF8.self)
                #expect(reply.status == 400)
                #expect(try Self.error(reply) == "illegal_database_name")
                #expect(!body.contains(dataDirectory.path) && !body.contains(parent.lastPathComponent))
            }
            try await Self.expectAlive(server)
        }
    }
}
