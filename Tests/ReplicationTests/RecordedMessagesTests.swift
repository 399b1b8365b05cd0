import CouchProtocol
import DocumentStore
import Foundation
import Testing
@testable import Replication
import DocumentFormat
import HTTPSupport

/// The CouchProtocol messages of `_bulk_get`, `open_revs`, `GET /db`, `_all_docs` and `_find`
/// read what real CouchDB 3.4.3 and its replicator wrote, and write it back as the same JSON.
@Suite struct RecordedMessagesTests {
    typealias Exchange = RecordedRepliesTests.Exchange

    static func exchanges(where matches: (Exchange) -> Bool) throws -> [Exchange] {
        try RecordedRepliesTests.allFiles.flatMap { try RecordedRepliesTests.exchanges($0).filter(matches) }
    }

    static func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

    @Test func bulkGetRequestsAndRepliesRoundTrip() throws {
        let recorded = try Self.exchanges { $0.path.contains("/_bulk_get") && $0.status == 200 }
        #expect(recorded.count == 7)
        for exchange in recorded {
            let sent = try Self.json(exchange.requestBody)
            let request = try BulkGetMessage.Request(json: try #require(sent.objectValue))
            #expect(request.json == sent, "\(exchange.path)")
            let answered = try Self.json(exchange.body)
            #expect(try BulkGetMessage.Response(json: answered).json == answered, "\(exchange.path)")
        }
        // CouchDB's replicator repeats its query in the body and always sends atts_since.
        let replicator = try #require(recorded.first { $0.requestHeaders["user-agent"]?.hasPrefix("CouchDB-Replicator") == true })
        let asked = try BulkGetMessage.Request(json: try #require(try Self.json(replicator.requestBody).objectValue))
        #expect(asked.revs == true && asked.latest == true && asked.attachments == false)
        #expect(asked.docs.allSatisfy { $0.attachmentsSince != nil && $0.rev != nil })
        // The direct call: the first item names no revision, and a missing document is an error entry.
        let direct = try #require(recorded.first { $0.path.contains("attachments=true") })
        let items = try BulkGetMessage.Request(json: try #require(try Self.json(direct.requestBody).objectValue)).docs
        #expect(items.first == .init(id: "CDTIS-Recipe-22222222-2222-4222-8222-222222222222", rev: nil))
        let reply = try BulkGetMessage.Response(json: try Self.json(direct.body))
        #expect(reply.results.map(\.id) == items.map(\.id))
        let failure = reply.results.flatMap(\.docs).compactMap { entry -> JSONObject? in
            if case .error(let failure) = entry { failure } else { nil }
        }
        #expect(failure == [["id": "nodoc", "rev": "undefined", "error": "not_found", "reason": "missing"]])
    }

    @Test func openRevsJSONRoundTrips() throws {
        let exchange = try #require(try Self.exchanges { $0.path.contains("open_revs=all") }.first)
        let body = try Self.json(exchange.body)
        let reply = try OpenRevsReply(json: body, documentID: "CDTIS-RecipeType-11111111-1111-4111-8111-111111111111")
        #expect(reply.json == body)
        #expect(reply.entries.map { entry -> String? in
            if case .ok(let doc) = entry { doc["_rev"]?.stringValue } else { nil }
        } == ["2-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "2-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"])
        let missing: JSONValue = [["missing": "1-abc"]]
        #expect(try OpenRevsReply(json: missing, documentID: "x") == OpenRevsReply([.missing("1-abc")]))
        #expect(OpenRevsReply([.missing("1-abc")]).json == missing)
    }

    /// The parts the server writes are framed as CouchDB frames them, and read back by the
    /// one reader.
    @Test func openRevsMultipartPartsWriteAndReadBack() throws {
        var writer = MultipartWriter(output: Data(), boundary: "b")
        try RevisionResult.missing("1-abc").appendPart(to: &writer)
        try RevisionResult.ok(["_id": "d", "_rev": "1-aaaa", "n": 1, "_revisions": ["start": 1, "ids": ["aaaa"]]]).appendPart(to: &writer)
        var related = MultipartWriter(output: Data(), boundary: "r")
        let bytes = Data("hello".utf8)
        try related.appendPart(headers: [("Content-Type", "application/json")], body: JSONWriter.couchDB.data([
            "_id": "d", "_rev": "2-bbbb", "_revisions": ["start": 2, "ids": ["bbbb", "aaaa"]],
            "_attachments": ["a.txt": ["content_type": "text/plain", "revpos": 2, "length": 5, "follows": true,
                                       "digest": .string(MultipartPullTests.md5(bytes))]],
        ]))
        try related.appendPart(headers: MultipartWriter<Data>.attachmentHeaders(name: "a.txt", contentType: "text/plain", length: 5), body: bytes)
        let relatedType = related.contentType("related")
        try OpenRevsMultipartReply.appendRelated(contentType: relatedType, body: try related.finish(), to: &writer)
        let contentType = writer.contentType("mixed")
        let body = try writer.finish()
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.hasPrefix("--b\r\nContent-Type: application/json; error=\"true\"\r\n\r\n{\"missing\":\"1-abc\"}\r\n--b\r\nContent-Type: application/json\r\n\r\n"))
        #expect(text.hasSuffix("\r\n\r\nhello\r\n--r--\r\n--b--"))

        let result = try FetchResult(OpenRevsMultipartReply(data: body, contentType: contentType, documentID: "d"), documentID: "d")
        #expect(result.failures == [DocumentFailure(id: "d", rev: RevisionID("1-abc"), error: "not_found", reason: "missing")])
        #expect(result.revisions.map(\.rev.description) == ["1-aaaa", "2-bbbb"])
        guard case .data(_, let data, 2) = result.revisions[1].attachments["a.txt"] else {
            Issue.record("attachment not carried as bytes")
            return
        }
        #expect(data == bytes)
    }

    @Test func databaseInfoRoundTripsWithEveryMember() throws {
        let recorded = try Self.exchanges {
            $0.method == "GET" && $0.status == 200 && ["/src", "/src/", "/tgt_push2/"].contains($0.path)
        }
        #expect(recorded.count >= 3)
        for exchange in recorded {
            let body = try Self.json(exchange.body)
            let info = try DatabaseInfoReply(json: body)
            #expect(info.json == body)
            #expect(info.others.isEmpty)
        }
        let first = try DatabaseInfoReply(json: try Self.json(try #require(recorded.first { $0.path == "/src" }).body))
        #expect(first.name == "src" && first.documentCount == 4 && first.deletedDocumentCount == 1)
        #expect(first.sizes == .init(file: 61849, external: 1273, active: 4233))
        #expect(first.cluster == .init(q: 2, n: 1, w: 1, r: 1) && first.diskFormatVersion == 8 && first.compactRunning == false)
        #expect(first.instanceStartTime == "1795311913" && first.props == [:])
        #expect(first.updateSequence.stringValue?.hasPrefix("9-g1AAAA") == true)
    }

    @Test func allDocsRepliesRoundTrip() throws {
        let recorded = try Self.exchanges { $0.path.contains("/_all_docs") && $0.status == 200 }
        #expect(recorded.count == 2)
        for exchange in recorded {
            let body = try Self.json(exchange.body)
            #expect(try AllDocsReply(json: body).json == body)
        }
        let listed = try AllDocsReply(json: try Self.json(recorded[0].body))
        #expect(listed.totalRows == 4 && listed.offset == 0 && listed.rows.count == 4)
        #expect(listed.rows.last == .document(id: "CDTISMetaData", rev: RevisionID("1-b5a2aab9497c27997c8e3391e235275d")!,
                                              deleted: false, doc: nil))
        let keyed = try AllDocsReply(json: try Self.json(recorded[1].body))
        #expect(keyed.offset == nil)
        #expect(keyed.rows[1] == .error(key: "nodoc", error: "not_found"))
        #expect(keyed.rows[2] == .document(id: "CDTIS-Ingredient-44444444-4444-4444-8444-444444444444",
                                           rev: RevisionID("2-3ef253eb5a7c3e42f474ca867d592553")!, deleted: true, doc: nil))
    }

    @Test func findRepliesRoundTrip() throws {
        let exchange = try #require(try Self.exchanges { $0.path.hasSuffix("/_find") && $0.status == 200 }.first)
        let body = try Self.json(exchange.body)
        let reply = try FindReply(json: body)
        #expect(reply.json == body)
        #expect(reply.docs.map { $0["name"] } == ["Chocolate Cake"])
        #expect(reply.bookmark.hasPrefix("g1AAAACAeJzLYWBgYMpgSmHgKy5JLCrJTq2MT8lPzkzJBYobOruEeAbrBqUmZxak6hpBAZihawIiLGBcGAAZxAEzKAdkNMgcNogJICafc0Z"))
        #expect(reply.warning == nil)
    }

    @Test func documentWriteRepliesRoundTrip() throws {
        let recorded = try Self.exchanges { $0.method == "PUT" && [200, 201].contains($0.status) && $0.body.hasPrefix("{\"ok\":true,\"id\"") }
        #expect(recorded.count == 7)
        for exchange in recorded {
            let body = try Self.json(exchange.body)
            #expect(try DocumentWriteReply(json: body).json == body)
        }
        let checkpoint = try #require(recorded.first { $0.path == "/src/_local/checkpoint-example" })
        #expect(try DocumentWriteReply(json: try Self.json(checkpoint.body)) == DocumentWriteReply(id: "_local/checkpoint-example", rev: "0-1"))
        #expect(throws: ReplyShapeError.self) { try DocumentWriteReply(json: ["ok": true, "id": "x"]) }
    }

    @Test func bulkDocsRequestsReadAndWriteAsCouchDBsReplicatorSendsThem() throws {
        let recorded = try Self.exchanges { $0.path.hasSuffix("/_bulk_docs") && $0.method == "POST" }
        #expect(recorded.count == 4)
        for exchange in recorded {
            let sent = try #require(try Self.json(exchange.requestBody).objectValue)
            let request = try BulkDocsRequest(json: sent, maximumDocuments: 1000)
            let docs = try #require(sent["docs"]?.arrayValue)
            #expect(request.newEdits == (sent["new_edits"]?.boolValue ?? true), "\(exchange.path)")
            #expect(request.docs.map(\.id) == docs.map { $0.objectValue?["_id"]?.stringValue }, "\(exchange.path)")
            // Written back around the same documents, the framing gives the same JSON.
            var written: [UInt8] = []
            BulkDocsRequest.write(newEdits: request.newEdits, count: docs.count, to: &written) { index, buffer in
                JSONWriter.couchDB.appendObject(docs[index].objectValue!, to: &buffer)
            }
            var expected = sent
            expected["new_edits"] = .bool(request.newEdits)
            #expect(try JSONValue.parse(Data(written)) == .object(expected), "\(exchange.path)")
        }
        let replicator = try #require(recorded.first { $0.requestHeaders["user-agent"]?.hasPrefix("CouchDB-Replicator") == true })
        let pushed = try BulkDocsRequest(json: try #require(try Self.json(replicator.requestBody).objectValue), maximumDocuments: 1000)
        #expect(!pushed.newEdits && pushed.docs.allSatisfy { $0.revisions != nil })
        // What CouchDB refuses is refused before anything is read further.
        #expect(throws: CouchError.self) { try BulkDocsRequest(json: ["doc": []], maximumDocuments: 10) }
        #expect(throws: CouchError.self) { try BulkDocsRequest(json: ["docs": [1]], maximumDocuments: 10) }
        #expect(throws: CouchError.self) { try BulkDocsRequest(json: ["docs": [[:], [:]]], maximumDocuments: 1) }
        #expect(throws: CouchError.self) { try BulkDocsRequest(json: ["docs": [], "new_edits": "no"], maximumDocuments: 1) }
    }
}
