import CouchProtocol
import DocumentStore
import Foundation
import Testing
@testable import Replication
import TestSupport
import DocumentFormat
import HTTPSupport

/// Pulling attachments as CouchDB's replicator does: `_bulk_get` with stubs, then `open_revs`
/// as multipart/mixed with raw attachment bytes, checked against their stubs before anything
/// is stored.
@Suite struct MultipartPullTests {
    // MARK: helpers

    /// One recorded exchange with the response's headers and its bytes (`\xNN` escapes of
    /// non-UTF-8 bytes turned back into bytes).
    struct Recorded {
        var method: String
        var path: String
        var requestHeaders: [String: String]
        var status: Int
        var responseHeaders: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    static func recorded(_ file: String) throws -> [Recorded] {
        let text = try String(contentsOf: PackagePaths.recordings.appendingPathComponent(file), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let object = try JSONValue.parse(Data(line.utf8)).objectValue!
            let request = object["request"]!.objectValue!
            let response = object["response"]!.objectValue!
            func headers(_ value: JSONValue?) -> [String: String] {
                var result: [String: String] = [:]
                for (key, value) in value?.objectValue ?? [:] { result[key.lowercased()] = value.stringValue }
                return result
            }
            return Recorded(method: request["method"]!.stringValue!, path: request["path"]!.stringValue!,
                            requestHeaders: headers(request["headers"]), status: Int(response["status"]!.intValue!),
                            responseHeaders: headers(response["headers"]), body: unescape(response["body"]?.stringValue ?? ""))
        }
    }

    /// Characters as UTF-8, `\xNN` as the byte NN.
    static func unescape(_ text: String) -> Data {
        var out = Data()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if scalars[index] == "\\", index + 3 < scalars.count, scalars[index + 1] == "x",
               let byte = UInt8(String(scalars[index + 2]) + String(scalars[index + 3]), radix: 16) {
                out.append(byte)
                index += 4
            } else {
                out.append(contentsOf: Array(String(scalars[index]).utf8))
                index += 1
            }
        }
        return out
    }

    /// A multipart body with CRLF line ends and a closing delimiter.
    static func multipart(_ boundary: String, _ parts: [([(String, String)], Data)]) -> Data {
        var data = Data()
        for (headers, body) in parts {
            data.append(contentsOf: "--\(boundary)\r\n".utf8)
            for (name, value) in headers { data.append(contentsOf: "\(name): \(value)\r\n".utf8) }
            data.append(contentsOf: "\r\n".utf8)
            data.append(body)
            data.append(contentsOf: "\r\n".utf8)
        }
        data.append(contentsOf: "--\(boundary)--".utf8)
        return data
    }

    static func md5(_ data: Data) -> String { RevisionHasher.attachmentDigest(data) }

    /// An `open_revs` multipart/mixed reply for `doc1` at `1-aaaa` with attachment `a.txt`:
    /// the stub announces `stubBytes`, the part carries `partBytes` with `partHeaders`.
    static func openRevsReply(stubBytes: Data, partBytes: Data, partHeaders: [(String, String)]? = nil,
                              cut: Int = 0) -> (contentType: String, data: Data) {
        let document = #"{"_id":"doc1","_rev":"1-aaaa","name":"Soup","_revisions":{"start":1,"ids":["aaaa"]},"_attachments":{"a.txt":{"content_type":"text/plain","revpos":1,"digest":"\#(md5(stubBytes))","length":\#(stubBytes.count),"follows":true}}}"#
        let headers = partHeaders ?? [("Content-Disposition", #"attachment; filename="a.txt""#), ("Content-Type", "text/plain"),
                                      ("Content-Length", String(partBytes.count))]
        let related = multipart("inner", [([("Content-Type", "application/json")], Data(document.utf8)), (headers, partBytes)])
        let mixed = multipart("outer", [([("Content-Type", #"multipart/related; boundary="inner""#)], related)])
        return (#"multipart/mixed; boundary="outer""#, mixed.dropLast(cut))
    }

    /// Every attachment as multipart, like CouchDB's replicator (small ones included).
    static func allMultipart(_ url: String) throws -> CouchDatabase {
        var options = CouchClientOptions()
        options.multipartAttachmentThreshold = 0
        return try CouchDatabase(url: url, options: options)
    }

    static let stubBulkGet = #"{"results":[{"id":"doc1","docs":[{"ok":{"_id":"doc1","_rev":"1-aaaa","name":"Soup","_revisions":{"start":1,"ids":["aaaa"]},"_attachments":{"a.txt":{"content_type":"text/plain","revpos":1,"digest":"\#(md5(Data("hello".utf8)))","length":5,"stub":true}}}}]}]}"#

    // MARK: the parser

    @Test func theRecordedMultipartReplyParsesIntoTheDocumentAndItsJPEG() throws {
        let exchange = try #require(try Self.recorded("couch-replicator-pulls-from-server.jsonl").first {
            $0.requestHeaders["accept"] == "multipart/mixed"
        })
        let contentType = try #require(exchange.responseHeaders["content-type"])
        let id = "CDTIS-Recipe-22222222-2222-4222-8222-222222222222"
        let result = try FetchResult(OpenRevsMultipartReply(data: exchange.body, contentType: contentType, documentID: id), documentID: id)
        #expect(result.failures.isEmpty)
        let revision = try #require(result.revisions.first)
        #expect(result.revisions.count == 1)
        #expect(revision.id == id && revision.rev.description == "1-209a1f02d51251ec44a1a49103c5dd63")
        #expect(revision.body["name"] == "Chocolate Cake" && revision.body["_attachments"] == nil)
        #expect(revision.history.map(\.description) == ["1-209a1f02d51251ec44a1a49103c5dd63"])
        guard case .data(let type, let jpeg, let revpos) = revision.attachments["thumbnailImage"] else {
            Issue.record("thumbnail not carried as bytes")
            return
        }
        #expect(type == "image/jpeg" && revpos == 1 && jpeg.count == 222)
        #expect(jpeg.prefix(4) == Data([0xFF, 0xD8, 0xFF, 0xE0]) && jpeg.suffix(2) == Data([0xFF, 0xD9]))
        #expect(Self.md5(jpeg) == "md5-xJs/8Hg5mpzwSFaxjRw9Ig==")
        // The bytes are a slice of the reply, not a copy of it.
        #expect(jpeg.startIndex > exchange.body.startIndex)
        #expect(exchange.body[jpeg.startIndex..<jpeg.endIndex] == jpeg)
    }

    @Test func bodiesWithPreamblesAndUnlengthedPartsSplit() throws {
        var data = Data("preamble to ignore\r\n".utf8)
        data.append(Self.multipart("b1", [([("Content-Type", "application/json")], Data(#"{"a":1}"#.utf8)),
                                          ([("content-type", "text/plain")], Data("line\r\nnext".utf8))]))
        let body = try MultipartBody(data: data, contentType: "multipart/mixed; boundary=b1")
        #expect(body.parts.count == 2)
        #expect(body.parts[0].mediaType == "application/json" && body.parts[0].body == Data(#"{"a":1}"#.utf8))
        #expect(body.parts[1].body == Data("line\r\nnext".utf8))
    }

    @Test(arguments: [
        ("no boundary", "multipart/mixed", Data("--x\r\n\r\nbody\r\n--x--".utf8)),
        ("not multipart", "application/json; boundary=x", Data("--x\r\n\r\nbody\r\n--x--".utf8)),
        ("no opening boundary", "multipart/mixed; boundary=x", Data("just text".utf8)),
        ("no closing boundary", "multipart/mixed; boundary=x", Data("--x\r\nContent-Type: text/plain\r\n\r\nbody".utf8)),
        ("headers cut short", "multipart/mixed; boundary=x", Data("--x\r\nContent-Type: text/pl".utf8)),
        ("header without colon", "multipart/mixed; boundary=x", Data("--x\r\nnonsense\r\n\r\nbody\r\n--x--".utf8)),
        ("length past the end", "multipart/mixed; boundary=x", Data("--x\r\nContent-Length: 90\r\n\r\nbody\r\n--x--".utf8)),
        ("length not matching", "multipart/mixed; boundary=x", Data("--x\r\nContent-Length: 2\r\n\r\nbody\r\n--x--".utf8)),
    ])
    func malformedBodiesAreTypedErrors(name: String, contentType: String, data: Data) {
        #expect(throws: MultipartFormatError.self, "\(name)") { _ = try MultipartBody(data: data, contentType: contentType) }
    }

    // MARK: pulling over HTTP

    @Test func aPullReplayingCouchDBsRecordedRepliesStoresTheJPEGAndEveryRevision() async throws {
        let recorded = try Self.recorded("couch-replicator-pulls-from-server.jsonl")
        let info = try #require(recorded.first { $0.method == "GET" && $0.path == "/src/" && $0.status == 200 })
        let changes = try #require(recorded.first { $0.path.hasPrefix("/src/_changes") })
        let documents = try #require(recorded.first { $0.requestHeaders["accept"] == "multipart/mixed" })
        // Every revision CouchDB's _bulk_get returned (attachments as stubs), by id and rev.
        var byRevision: [String: JSONValue] = [:]
        for exchange in recorded where exchange.path.contains("/_bulk_get") {
            for result in try JSONValue.parse(exchange.body).objectValue!["results"]!.arrayValue! {
                let entry = result.objectValue!
                for doc in entry["docs"]!.arrayValue! {
                    let ok = doc.objectValue!["ok"]!.objectValue!
                    byRevision["\(ok["_id"]!.stringValue!) \(ok["_rev"]!.stringValue!)"] = .object(["id": entry["id"]!, "docs": [doc]])
                }
            }
        }
        let listed = byRevision
        let server = try await CannedResponder { request, _ in
            switch (request.method, request.path) {
            case ("GET", "/src"): return .init(status: 200, body: info.text)
            case ("GET", let path) where path.hasPrefix("/src/_local/"):
                return .init(status: 404, body: #"{"error":"not_found","reason":"missing"}"#)
            case ("PUT", let path) where path.hasPrefix("/src/_local/"): return .init(status: 201, body: #"{"ok":true}"#)
            case ("GET", "/src/_changes"): return .init(status: 200, body: changes.text)
            case ("POST", "/src/_bulk_get"):
                let asked = (try? JSONValue.parse(request.body).objectValue?["docs"]?.arrayValue) ?? []
                let results = asked.compactMap { entry -> JSONValue? in
                    let object = entry.objectValue!
                    return listed["\(object["id"]!.stringValue!) \(object["rev"]!.stringValue!)"]
                }
                return .init(status: 200, body: String(decoding: JSONWriter.couchDB.data(["results": .array(results)]), as: UTF8.self))
            case ("GET", "/src/CDTIS-Recipe-22222222-2222-4222-8222-222222222222"):
                return .init(status: 200, body: "", contentType: documents.responseHeaders["content-type"]!, data: documents.body)
            default: return .init(status: 404, body: #"{"error":"not_found","reason":"missing"}"#)
            }
        }
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let local = try DocumentStore(path: dir.path("local.sqlite"))
        let summary = try await Sync(store: local, remote: try Self.allMultipart(server.url("src"))).pull()
        #expect(summary.docsFailed == 0 && summary.docsWritten == 6)
        let recipe = try #require(try local.attachment(id: "CDTIS-Recipe-22222222-2222-4222-8222-222222222222", name: "thumbnailImage"))
        #expect(recipe.info.digest == "md5-xJs/8Hg5mpzwSFaxjRw9Ig==" && recipe.data.count == 222 && recipe.info.contentType == "image/jpeg")
        #expect(try local.leafRevisions(id: "CDTIS-RecipeType-11111111-1111-4111-8111-111111111111").count == 2)
        #expect(try local.get(id: "CDTIS-Ingredient-44444444-4444-4444-8444-444444444444") == nil)
        #expect(try local.documentCount() == 4)
        let requests = server.requests
        #expect(requests.filter { $0.path.hasSuffix("/_bulk_get") }.allSatisfy { $0.query.contains("attachments=false") })
        let documentGets = requests.filter { $0.method == "GET" && $0.path.hasPrefix("/src/CDTIS") }
        #expect(documentGets.count == 1)
        #expect(documentGets.first?.headers["accept"] == "multipart/mixed")
        #expect(documentGets.first?.query.contains("open_revs=%5B%221-209a1f02d51251ec44a1a49103c5dd63%22%5D") == true)
    }

    @Test func anAttachmentTheTargetHoldsIsNotFetchedAgain() async throws {
        let reply = Self.openRevsReply(stubBytes: Data("hello".utf8), partBytes: Data("hello".utf8))
        let bulkGet = #"{"results":[{"id":"doc1","docs":[{"ok":{"_id":"doc1","_rev":"2-bbbb","name":"Soup","_revisions":{"start":2,"ids":["bbbb","aaaa"]},"_attachments":{"a.txt":{"content_type":"text/plain","revpos":1,"digest":"\#(Self.md5(Data("hello".utf8)))","length":5,"stub":true}}}}]}]}"#
        let server = try await CannedResponder { request, _ in
            switch request.path {
            case "/db/_bulk_get": return .init(status: 200, body: bulkGet)
            case "/db/doc1": return .init(status: 200, body: "", contentType: reply.contentType, data: reply.data)
            default: return .init(status: 404, body: #"{"error":"not_found","reason":"missing"}"#)
            }
        }
        defer { server.stop() }
        let remote = try Self.allMultipart(server.url("db"))
        let known = try await remote.fetchRevisions([RevisionFetch(id: "doc1", revisions: [RevisionID("2-bbbb")!],
                                                                   attachmentsSince: [RevisionID("1-aaaa")!])])
        guard case .stub(let info) = known.revisions.first?.attachments["a.txt"] else {
            Issue.record("an attachment unchanged since 1-aaaa was not left a stub")
            return
        }
        #expect(info.length == 5)
        #expect(!server.requests.contains { $0.path == "/db/doc1" })
        // Without a common ancestor the bytes are fetched, once, raw.
        let unknown = try await remote.fetchRevisions([RevisionFetch(id: "doc1", revisions: [RevisionID("2-bbbb")!])])
        let gets = server.requests.filter { $0.path == "/db/doc1" }
        #expect(gets.count == 1)
        #expect(gets.first?.query.contains("attachments=true") == true)
        guard case .data(_, let data, _) = unknown.revisions.first?.attachments["a.txt"] else {
            Issue.record("attachment bytes not fetched")
            return
        }
        #expect(data == Data("hello".utf8))
    }

    static let badReplies: [(String, (contentType: String, data: Data))] = [
        ("digest mismatch", openRevsReply(stubBytes: Data("hello".utf8), partBytes: Data("hellp".utf8))),
        ("length mismatch", openRevsReply(stubBytes: Data("hello".utf8), partBytes: Data("hell".utf8))),
        ("truncated", openRevsReply(stubBytes: Data("hello".utf8), partBytes: Data("hello".utf8), cut: 30)),
        ("gzip part", openRevsReply(stubBytes: Data("hello".utf8), partBytes: Data("hello".utf8), partHeaders: [
            ("Content-Disposition", #"attachment; filename="a.txt""#), ("Content-Encoding", "gzip")])),
        ("part for no stub", openRevsReply(stubBytes: Data("hello".utf8), partBytes: Data("hello".utf8), partHeaders: [
            ("Content-Disposition", #"attachment; filename="other.txt""#)])),
    ]

    /// A source whose `_bulk_get` lists `doc1` with a stub and whose `open_revs` answers `reply`.
    static func serving(_ reply: (contentType: String, data: Data)) async throws -> CannedResponder {
        try await HTTPFailureTests.source { request, _ in
            switch request.path {
            case "/db/_bulk_get": return .init(status: 200, body: Self.stubBulkGet)
            case "/db/doc1": return .init(status: 200, body: "", contentType: reply.contentType, data: reply.data)
            default: return nil
            }
        }
    }

    @Test(arguments: 0..<badReplies.count)
    func aDamagedMultipartReplyIsTypedAndLeavesTheStoreUnchanged(_ index: Int) async throws {
        let (name, reply) = Self.badReplies[index]
        let server = try await Self.serving(reply)
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let local = try DocumentStore(path: dir.path("local.sqlite"))
        let before = try local.lastSequence
        do {
            _ = try await Sync(store: local, remote: try Self.allMultipart(server.url("db"))).pull()
            Issue.record("pull accepted a damaged reply (\(name))")
        } catch let error as ReplicationError {
            guard case .malformedReply(_, let detail) = error else {
                Issue.record("\(name): unexpected \(error)")
                return
            }
            #expect(detail.contains("GET /db/doc1"), "\(name): \(detail)")
            if name == "truncated" { #expect(detail.contains("at byte"), "\(detail)") }
        }
        #expect(try local.lastSequence == before)
        #expect(try local.documentCount() == 0)
        #expect(!server.requests.contains { $0.method == "PUT" })
    }

    @Test func theSameReplyUndamagedIsStored() async throws {
        let reply = Self.openRevsReply(stubBytes: Data("hello".utf8), partBytes: Data("hello".utf8))
        let server = try await Self.serving(reply)
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let local = try DocumentStore(path: dir.path("local.sqlite"))
        let summary = try await Sync(store: local, remote: try Self.allMultipart(server.url("db"))).pull()
        #expect(summary.docsWritten == 1)
        #expect(try local.attachment(id: "doc1", name: "a.txt")?.data == Data("hello".utf8))
    }

    @Test func withoutBulkGetEachDocumentComesAsMultipart() async throws {
        let reply = Self.openRevsReply(stubBytes: Data("hello".utf8), partBytes: Data("hello".utf8))
        let server = try await HTTPFailureTests.source { request, _ in
            switch request.path {
            case "/db/_bulk_get": return .init(status: 404, body: #"{"error":"not_found","reason":"missing"}"#)
            case "/db/doc1": return .init(status: 200, body: "", contentType: reply.contentType, data: reply.data)
            default: return nil
            }
        }
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let local = try DocumentStore(path: dir.path("local.sqlite"))
        let summary = try await Sync(store: local, remoteURL: server.url("db")).pull()
        #expect(summary.docsWritten == 1)
        #expect(try local.attachment(id: "doc1", name: "a.txt")?.data == Data("hello".utf8))
        let get = try #require(server.requests.first { $0.path == "/db/doc1" })
        #expect(get.headers["accept"] == "multipart/mixed" && get.query.contains("attachments=true"))
    }

    @Test func smallAttachmentsComeInlineInASecondBulkGetByDefault() async throws {
        let server = try await HTTPFailureTests.source { request, _ in
            guard request.path == "/db/_bulk_get" else { return nil }
            return .init(status: 200, body: request.query.contains("attachments=false") ? Self.stubBulkGet : HTTPFailureTests.bulkGet)
        }
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let local = try DocumentStore(path: dir.path("local.sqlite"))
        let summary = try await Sync(store: local, remoteURL: server.url("db")).pull()
        #expect(summary.docsWritten == 1)
        #expect(try local.attachment(id: "doc1", name: "a.txt")?.data == Data("hello".utf8))
        let bulkGets = server.requests.filter { $0.path == "/db/_bulk_get" }
        #expect(bulkGets.map { $0.query.contains("attachments=true") } == [false, true])
        #expect(!server.requests.contains { $0.path == "/db/doc1" })
    }

    // MARK: against our server

    @Test func aFiveMegabyteAttachmentPullsByteEqualAndIsNotSentAgainWhenUnchanged() async throws {
        try await withServer(ServerReplicationTests.Server()) { server in
            let dir = try TemporaryDirectory()
            let a = try DocumentStore(path: dir.path("a.sqlite"))
            let big = testBytes(5 * 1024 * 1024, seed: 11)
            let created = try a.create(id: "CDTIS-Image-big", body: ["CDTISEntityName": "Image", "caption": "first"],
                                       attachments: [.put(name: "image", contentType: "image/png", data: big)])
            var push = ReplicationOptions()
            push.createTarget = true
            let toServer = try Sync(store: a, remoteURL: server.url("photos"))
            _ = try await toServer.push(options: push)

            let b = try DocumentStore(path: dir.path("b.sqlite"))
            let fromServer = try Sync(store: b, remoteURL: server.url("photos"))
            let first = try await fromServer.pull()
            #expect(first.docsWritten == 1 && first.bytesTransferred == big.count)
            let copy = try #require(try b.attachment(id: "CDTIS-Image-big", name: "image"))
            // md5- and the base64 MD5 of testBytes(5 MiB, seed: 11), computed by python3 hashlib
            // from the same generator, independently of the code under test.
            #expect(copy.data == big && copy.info.digest == "md5-GjShgoeBJBIGUGc/HzHWJA==")

            // The body changes, the attachment doesn't: the next pull carries no attachment bytes.
            _ = try a.update(id: created.id, parent: created.rev, body: ["CDTISEntityName": "Image", "caption": "second"])
            _ = try await toServer.push()
            let second = try await fromServer.pull()
            #expect(second.docsWritten == 1 && second.bytesTransferred == 0)
            #expect(try b.get(id: "CDTIS-Image-big")?.body["caption"] == "second")
            #expect(try b.attachment(id: "CDTIS-Image-big", name: "image")?.data == big)

            // A new small attachment travels alone.
            let current = try #require(try a.get(id: "CDTIS-Image-big"))
            _ = try a.update(id: current.id, parent: current.rev, body: current.body,
                             attachments: [.put(name: "note.txt", contentType: "text/plain", data: Data("hello".utf8))])
            _ = try await toServer.push()
            let third = try await fromServer.pull()
            #expect(third.docsWritten == 1 && third.bytesTransferred == 5)
            #expect(try b.attachment(id: "CDTIS-Image-big", name: "note.txt")?.data == Data("hello".utf8))
            #expect(try StoreSnapshot(a) == StoreSnapshot(b))
        }
    }
}
