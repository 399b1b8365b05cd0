import CouchProtocol
import DocumentStore
import Foundation
import InteropSupport
import Testing
import DocumentFormat

/// The CouchProtocol messages read what a live CouchDB (`COUCHDB_URL`) answers where the
/// recordings have no example (`include_docs` with a deleted key, a `_find` warning, an
/// `open_revs` with a missing revision, JSON and multipart), and write it back as the same JSON.
@Suite("Reply messages against a live CouchDB", .serialized,
       .enabled(if: LiveCouchDB.isConfigured, "COUCHDB_URL is not set: no live CouchDB to read replies from"))
struct LiveReplyMessagesTests {
    static func json(_ reply: HTTPReply) throws -> JSONValue { try JSONValue.parse(reply.body) }

    @Test func couchDBRepliesReadAndWriteBackThroughTheMessages() async throws {
        let couch = try await LiveCouchDB.connect()
        try await couch.withDatabase("messages") { db in
            let bytes = Data("hello".utf8)
            let written = try await couch.send("POST", "/\(db)/_bulk_docs", json: ["docs": [
                ["_id": "a", "n": 1, "_attachments": ["a.txt": ["content_type": "text/plain", "data": .string(bytes.base64EncodedString())]]],
                ["_id": "b", "n": 2],
            ]])
            #expect(written.status == 201)
            let saved = try BulkDocsReply(json: try Self.json(written)).results
            guard case .saved(_, let revA?) = saved[0], case .saved(_, let revB?) = saved[1] else {
                Issue.record("bulk_docs did not save both: \(saved)")
                return
            }
            let deleted = try await couch.send("DELETE", "/\(db)/b?rev=\(revB)")
            #expect(deleted.status == 200)

            let infoBody = try Self.json(try await couch.send("GET", "/\(db)"))
            let info = try DatabaseInfoReply(json: infoBody)
            #expect(info.json == infoBody)
            #expect(info.name == db && info.documentCount == 1 && info.deletedDocumentCount == 1)

            let allBody = try Self.json(try await couch.send("POST", "/\(db)/_all_docs?include_docs=true", json: ["keys": ["a", "b", "nope"]]))
            let all = try AllDocsReply(json: allBody)
            #expect(all.json == allBody)
            #expect(all.totalRows == 1 && all.offset == nil && all.rows.count == 3)
            #expect(all.rows[2] == .error(key: "nope", error: "not_found"))
            guard case .document("b", _, true, .null?) = all.rows[1], case .document("a", revA, false, let doc?) = all.rows[0] else {
                Issue.record("unexpected rows \(all.rows)")
                return
            }
            #expect(doc.objectValue?["n"] == 1)

            let findBody = try Self.json(try await couch.send("POST", "/\(db)/_find", json: ["selector": ["n": ["$gt": 0]]]))
            let found = try FindReply(json: findBody)
            #expect(found.json == findBody)
            #expect(found.docs.map { $0["_id"] } == ["a"] && found.warning != nil)

            let getBody = try Self.json(try await couch.send("POST", "/\(db)/_bulk_get?revs=true", json: BulkGetMessage.Request(docs: [
                .init(id: "a", rev: revA.description), .init(id: "nope", rev: "1-abc"),
            ]).json, headers: ["Accept": "application/json"]))
            let got = try BulkGetMessage.Response(json: getBody)
            #expect(got.json == getBody)
            #expect(got.results.map(\.id) == ["a", "nope"])
            #expect(got.results[1].docs == [.error(id: "nope", rev: "1-abc", error: "not_found", reason: "missing")])

            let openRevs = "open_revs=%5B%22\(revA)%22,%221-abc%22%5D&revs=true&attachments=true"
            let openBody = try Self.json(try await couch.send("GET", "/\(db)/a?\(openRevs)", headers: ["Accept": "application/json"]))
            let open = try OpenRevsReply(json: openBody, documentID: "a")
            #expect(open.json == openBody)
            #expect(open.entries.count == 2 && open.entries[1] == .missing("1-abc"))

            let multipart = try await couch.send("GET", "/\(db)/a?\(openRevs)", headers: ["Accept": "multipart/mixed"])
            let parts = try OpenRevsMultipartReply(data: multipart.body, contentType: try #require(multipart.header("Content-Type")),
                                                   documentID: "a").parts
            #expect(parts.count == 2)
            guard case .document(let document) = parts.first, case .missing("1-abc") = parts.last else {
                Issue.record("unexpected parts \(parts)")
                return
            }
            #expect(document.rev == revA)
            guard case .data(_, let data, _) = document.attachments?["a.txt"] else {
                Issue.record("attachment not carried as bytes: \(String(describing: document.attachments))")
                return
            }
            #expect(data == bytes)
        }
    }
}
