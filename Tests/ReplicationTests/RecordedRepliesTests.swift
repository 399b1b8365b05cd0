import CouchProtocol
import DocumentStore
import Foundation
import Logging
import Testing
@testable import Replication
import DocumentFormat

/// Every reply shape in the real CouchDB 3.4.3 recordings parses into what it says.
@Suite struct RecordedRepliesTests {
    struct Exchange {
        var method: String
        var path: String
        var requestHeaders: [String: String]
        var requestBody: String
        var status: Int
        var body: String
    }

    static func exchanges(_ file: String) throws -> [Exchange] {
        let text = try String(contentsOf: PackagePaths.recordings.appendingPathComponent(file), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let object = try JSONValue.parse(Data(line.utf8)).objectValue!
            let request = object["request"]!.objectValue!
            let response = object["response"]!.objectValue!
            var headers: [String: String] = [:]
            for (key, value) in request["headers"]?.objectValue ?? [:] { headers[key.lowercased()] = value.stringValue }
            return Exchange(method: request["method"]!.stringValue!, path: request["path"]!.stringValue!,
                            requestHeaders: headers, requestBody: request["body"]?.stringValue ?? "",
                            status: Int(response["status"]!.intValue!), body: response["body"]?.stringValue ?? "")
        }
    }

    static let allFiles = ["endpoints.jsonl", "couch-replicator-pulls-from-server.jsonl",
                           "couch-replicator-pulls-incremental.jsonl", "couch-replicator-pushes-to-server.jsonl"]

    func reply(_ exchange: Exchange) throws -> JSONValue { try JSONValue.parse(Data(exchange.body.utf8)) }

    @Test func changesFeedsKeepStringSequencesVerbatim() throws {
        var checked = 0
        for file in Self.allFiles {
            for exchange in try Self.exchanges(file) where exchange.path.contains("/_changes") && exchange.status == 200 {
                let page = try ChangesPage(json: try reply(exchange))
                let raw = try reply(exchange).objectValue!
                #expect(page.lastSequence.value == raw["last_seq"])
                #expect(page.lastSequence.value.stringValue != nil)
                let rawRows = raw["results"]!.arrayValue!
                #expect(page.rows.count == rawRows.count)
                for (row, rawRow) in zip(page.rows, rawRows) {
                    #expect(row.id == rawRow.objectValue!["id"]!.stringValue!)
                    let seq = rawRow.objectValue!["seq"]!
                    if seq.isNull { #expect(row.sequence == nil) } else { #expect(row.sequence?.value == seq) }
                    if let text = seq.stringValue { #expect(row.sequence?.queryText == text) }
                }
                checked += 1
            }
        }
        #expect(checked >= 5)
        let limited = try Self.exchanges("endpoints.jsonl").first { $0.path.contains("limit=3") }!
        let page = try ChangesPage(json: try reply(limited))
        #expect(page.pending == 2)
        #expect(page.rows[0].revisions.map(\.description) == ["2-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "2-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"])
        let interval = try Self.exchanges("endpoints.jsonl").first { $0.path.contains("seq_interval") }!
        let sparse = try ChangesPage(json: try reply(interval))
        #expect(sparse.rows.contains { $0.sequence == nil })
        let deletedRow = try ChangesPage(json: try reply(try Self.exchanges("couch-replicator-pulls-from-server.jsonl")
            .first { $0.path.contains("/_changes") }!)).rows.first { $0.id.hasSuffix("44444444-4444-4444-8444-444444444444") }
        #expect(deletedRow?.deleted == true)
    }

    @Test func revsDiffRepliesGiveMissingAndPossibleAncestors() throws {
        var checked = 0
        for file in Self.allFiles {
            for exchange in try Self.exchanges(file) where exchange.path.hasSuffix("/_revs_diff") {
                let diff = try RevsDiffMessage.Response(json: try reply(exchange)).entries
                #expect(!diff.isEmpty)
                checked += 1
            }
        }
        #expect(checked == 3)
        let endpoint = try Self.exchanges("endpoints.jsonl").first { $0.path.hasSuffix("/_revs_diff") }!
        let diff = try RevsDiffMessage.Response(json: try reply(endpoint)).entries
        let entry = diff["CDTIS-RecipeType-11111111-1111-4111-8111-111111111111"]!
        #expect(entry.missing.map(\.description) == ["3-cccccccccccccccccccccccccccccccc"])
        #expect(Set(entry.possibleAncestors.map(\.description)) == ["2-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "2-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"])
        #expect(diff["nodoc"]?.missing.map(\.description) == ["1-abc"])
    }

    /// The one `_changes` message writes back every normal and longpoll reply CouchDB wrote.
    @Test func changesRepliesRoundTripThroughTheOneMessage() throws {
        var checked = 0
        for file in Self.allFiles {
            for exchange in try Self.exchanges(file)
            where exchange.path.contains("/_changes") && exchange.status == 200 && !exchange.path.contains("feed=continuous") {
                let body = try reply(exchange)
                #expect(try ChangesResponse(json: body).json == body, "\(exchange.path)")
                checked += 1
            }
        }
        #expect(checked > 3)
    }

    /// The one `_revs_diff` message reads what CouchDB and its replicator wrote, and writes it
    /// back as the same JSON: request bodies from the replicator, replies from CouchDB.
    @Test func revsDiffMessagesRoundTripCouchDBsOwnBodies() throws {
        var checked = 0
        for file in Self.allFiles {
            for exchange in try Self.exchanges(file) where exchange.path.hasSuffix("/_revs_diff") {
                let sent = try JSONValue.parse(Data(exchange.requestBody.utf8))
                let request = try RevsDiffMessage.Request(json: try #require(sent.objectValue))
                #expect(request.json == sent)
                let answered = try reply(exchange)
                #expect(RevsDiffMessage.Response(entries: try RevsDiffMessage.Response(json: answered).entries).json == answered)
                checked += 1
            }
        }
        #expect(checked == 3)
    }

    @Test func bulkGetJSONWithInlineAttachmentsDeletionsAndErrors() throws {
        let exchange = try Self.exchanges("endpoints.jsonl").first { $0.path.contains("/_bulk_get") }!
        let result = try FetchResult(bulkGet: try reply(exchange))
        #expect(result.revisions.count == 3)
        #expect(result.failures.map(\.id) == ["nodoc"])
        #expect(result.failures.first?.error == "not_found")
        let recipe = result.revisions.first { $0.id.hasPrefix("CDTIS-Recipe-") }!
        #expect(recipe.rev.description == "1-209a1f02d51251ec44a1a49103c5dd63")
        #expect(recipe.body["name"] == "Chocolate Cake")
        #expect(recipe.body["_id"] == nil && recipe.body["_revisions"] == nil)
        guard case .data(let type, let data, let revpos) = recipe.attachments["thumbnailImage"] else {
            Issue.record("thumbnail not inline")
            return
        }
        #expect(type == "image/jpeg" && revpos == 1 && data.count == 222)
        #expect(data.prefix(2) == Data([0xFF, 0xD8]))
        let deleted = result.revisions.first { $0.id.hasPrefix("CDTIS-Ingredient-") }!
        #expect(deleted.deleted)
        #expect(deleted.history.map(\.description) == ["2-3ef253eb5a7c3e42f474ca867d592553", "1-fb0a3ad63515904a46f6db61ad8fb562"])
        // The replicator's own _bulk_get replies (attachments=false) carry stubs.
        var stubs = 0
        for exchange in try Self.exchanges("couch-replicator-pulls-from-server.jsonl") where exchange.path.contains("/_bulk_get") {
            for revision in try FetchResult(bulkGet: try reply(exchange)).revisions {
                for case .stub(let info) in revision.attachments.values {
                    #expect(info.digest == "md5-xJs/8Hg5mpzwSFaxjRw9Ig==" && info.length == 222 && info.revpos == 1)
                    stubs += 1
                }
            }
        }
        #expect(stubs == 1)
    }

    @Test func openRevsJSONListsEveryLeaf() throws {
        let exchange = try Self.exchanges("endpoints.jsonl").first { $0.path.contains("open_revs=all") }!
        let result = try FetchResult(openRevs: try reply(exchange), documentID: "CDTIS-RecipeType-11111111-1111-4111-8111-111111111111")
        #expect(result.revisions.count == 2)
        #expect(Set(result.revisions.map { $0.body["name"]!.stringValue! }) == ["Desserts", "Sweets"])
        #expect(result.revisions.allSatisfy { $0.history.count == 2 && $0.history[1].description == "1-fd9e5824ce812fcb248058bf43d96182" })
        let missing = try FetchResult(openRevs: .array([["missing": "1-abc"]]), documentID: "x")
        #expect(missing.failures.first?.rev?.description == "1-abc")
    }

    @Test func bulkDocsRepliesReportPerDocumentErrors() throws {
        let exchanges = try Self.exchanges("endpoints.jsonl").filter { $0.path.hasSuffix("/_bulk_docs") }
        #expect(exchanges.count == 2)
        let conflict = try BulkDocsReply(json: try reply(exchanges[0]))
        #expect(conflict.results == [.saved(id: "bulk1", rev: RevisionID("1-23202479633c2b380f79507a776743d5")),
                                     .refused(DocumentFailure(id: "newdoc", rev: nil, error: "conflict", reason: "Document update conflict."))])
        #expect(try BulkDocsReply(json: try reply(exchanges[1])).results.isEmpty)
        var recorded = exchanges
        for exchange in try Self.exchanges("couch-replicator-pushes-to-server.jsonl") where exchange.path.hasSuffix("/_bulk_docs") {
            #expect(try BulkDocsReply(json: try reply(exchange)).results.isEmpty)
            recorded.append(exchange)
        }
        // The one message writes back what CouchDB wrote.
        for exchange in recorded {
            let body = try reply(exchange)
            #expect(try BulkDocsReply(json: body).json == body)
        }
    }

    @Test func databaseInfoAndLocalDocuments() throws {
        for file in Self.allFiles {
            for exchange in try Self.exchanges(file) where exchange.method == "GET" && exchange.status == 200
                && (exchange.path == "/src" || exchange.path == "/src/" || exchange.path == "/tgt_push2/") {
                let info = try DatabaseInfo(json: try reply(exchange))
                #expect(info.updateSequence.value.stringValue?.contains("-g1AAAA") == true)
                #expect(info.documentCount != nil)
                // CouchDB 3.4.3 reports the database's creation time, the same on every read.
                #expect(info.instance == (exchange.path == "/tgt_push2/" ? "1795311934" : "1795311913"))
            }
        }
        let local = try Self.exchanges("couch-replicator-pulls-incremental.jsonl").first {
            $0.method == "GET" && $0.path.contains("/_local/") && $0.status == 200
        }!
        let checkpoint = try reply(local).objectValue!
        let start = ReplicationCheckpoint.startSequence(source: checkpoint, target: checkpoint, sourceInstance: "1795311913")
        #expect(start?.value == checkpoint["source_last_seq"])
    }

    @Test func errorRepliesBecomeTypedErrors() throws {
        let client = CouchHTTPClient(url: try CouchURL("http://admin:s3cret@127.0.0.1:1/src"), options: .init(),
                                     logger: Logger(label: "test"))
        let endpoints = try Self.exchanges("endpoints.jsonl")
        func typed(_ exchange: Exchange, db: Bool = false) -> ReplicationError {
            client.error(for: HTTPReply(status: exchange.status, headers: [:], body: Data(exchange.body.utf8)), missingDatabaseOn404: db)
        }
        let missing = endpoints.first { $0.path == "/nosuchdb" }!
        #expect(typed(missing) == .databaseNotFound(url: "http://127.0.0.1:1/src"))
        let wrong = endpoints.first { $0.status == 401 && $0.path == "/src" }!
        let unauthorized = typed(wrong)
        #expect(unauthorized == .unauthorized(url: "http://127.0.0.1:1/src", reason: "Name or password is incorrect."))
        #expect(!unauthorized.description.contains("s3cret"))
        let deletedDoc = endpoints.first { $0.status == 404 && $0.body.contains("deleted") }!
        #expect(typed(deletedDoc) == .httpStatus(url: "http://127.0.0.1:1/src", status: 404, error: "not_found", reason: "deleted"))
        let exists = endpoints.first { $0.status == 412 }!
        #expect(typed(exists) == .httpStatus(url: "http://127.0.0.1:1/src", status: 412, error: "file_exists",
                                              reason: "The database could not be created, the file already exists."))
        for exchange in endpoints where exchange.status >= 400 {
            let body = CouchError(status: exchange.status, body: Data(exchange.body.utf8))
            #expect(!body.error.isEmpty && !body.reason.isEmpty)
        }
    }

    @Test func malformedShapesAreRejected() throws {
        #expect(throws: ReplyShapeError.self) { try ChangesPage(json: ["results": "nope"]) }
        #expect(throws: ReplyShapeError.self) { try ChangesPage(json: ["results": [["id": "a"]], "last_seq": 1]) }
        #expect(throws: ReplyShapeError.self) { try ChangesPage(json: ["results": []]) }
        #expect(throws: ReplyShapeError.self) { try RevsDiffMessage.Response(json: ["a": ["missing": ["bad"]]]) }
        #expect(throws: ReplyShapeError.self) { try FetchResult(bulkGet: ["results": [["id": "a", "docs": [["ok": ["_id": "a"]]]]]]) }
        #expect(throws: ReplyShapeError.self) {
            try FetchResult(bulkGet: ["results": [["id": "a", "docs": [["ok": ["_id": "a", "_rev": "2-x",
                "_revisions": ["start": 3, "ids": ["x"]]]]]]]])
        }
        #expect(throws: ReplyShapeError.self) { try BulkDocsReply(json: ["ok": true]) }
        #expect(throws: DocumentFormatError.self) { try JSONValue.parse(Data(#"{"results":[{"id":"#.utf8)) }
    }

    @Test func documentsRoundTripThroughTheWireForm() throws {
        let revision = ReplicatedRevision(
            id: "doc \"1\"/é", rev: RevisionID("3-ccc")!, deleted: false,
            body: ["name": "Tea\n", "n": 1, "x": 1.5, "flag": true, "list": [nil, "a"]],
            history: [RevisionID("3-ccc")!, RevisionID("2-bbb")!, RevisionID("1-aaa")!],
            attachments: ["a.bin": .data(contentType: "application/octet-stream", data: Data([0, 1, 2, 255]), revpos: 3),
                          "old.txt": .stub(AttachmentInfo(contentType: "text/plain", length: 5, digest: "md5-abc", revpos: 1))])
        var buffer: [UInt8] = []
        try revision.appendDocument(attachmentsFollow: false, to: &buffer)
        let object = try JSONValue.parse(Data(buffer)).objectValue!
        #expect(object["_revisions"] == ["start": 3, "ids": ["ccc", "bbb", "aaa"]])
        let back = try CouchDocument(object).replicatedRevision()
        #expect(back.id == revision.id && back.rev == revision.rev && back.body == revision.body && back.history == revision.history)
        guard case .data(_, let data, 3) = back.attachments["a.bin"], case .stub(let info) = back.attachments["old.txt"] else {
            Issue.record("attachments changed form")
            return
        }
        #expect(data == Data([0, 1, 2, 255]) && info.digest == "md5-abc")
    }
}
