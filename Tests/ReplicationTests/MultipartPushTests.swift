import CouchProtocol
import DocumentStore
import Foundation
import Testing
@testable import Replication
import TestSupport
import DocumentFormat
import HTTPSupport

/// Pushing attachments as CouchDB's replicator does: a revision with attachment bytes to send
/// goes as `PUT /db/{id}?new_edits=false` with a `multipart/related` body, the document JSON
/// marking them `"follows": true` and each one's raw bytes in a part of its own.
@Suite struct MultipartPushTests {
    static let history = [RevisionID("2-bbbb")!, RevisionID("1-aaaa")!]

    /// A database client that sends every attachment as multipart, like CouchDB's replicator.
    static func allMultipart(_ url: String) throws -> CouchDatabase {
        var options = CouchClientOptions()
        options.multipartAttachmentThreshold = 0
        options.maxRetries = 1
        options.initialBackoff = 0.01
        return try CouchDatabase(url: url, options: options)
    }

    /// `doc1` at 2-bbbb: `new.bin` read from `store` (deferred), `old.txt` a stub the target holds.
    static func revision(deferredFrom store: DocumentStore, bytes: Data) throws -> ReplicatedRevision {
        let written = try store.create(id: "source", body: [:], attachments: [.put(name: "new.bin", contentType: "application/octet-stream", data: bytes)])
        let info = try #require(written.attachments["new.bin"])
        return ReplicatedRevision(
            id: "doc1", rev: history[0], deleted: false, body: ["name": "Soup"], history: history,
            attachments: ["new.bin": .deferred(info, source: store),
                          "old.txt": .stub(AttachmentInfo(contentType: "text/plain", length: 5, digest: RevisionHasher.attachmentDigest(Data("hello".utf8)), revpos: 1))])
    }

    @Test func theBodyIsTheDocumentThenTheRawBytesOfEachAttachmentSent() async throws {
        let server = try await CannedResponder { request, _ in
            .init(status: 201, body: #"{"ok":true,"id":"doc1","rev":"2-bbbb"}"#)
        }
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let store = try DocumentStore(path: dir.path("source.sqlite"))
        let bytes = testBytes(300_000, seed: 5)
        let failures = try await Self.allMultipart(server.url("db")).writeRevisions([try Self.revision(deferredFrom: store, bytes: bytes)])
        #expect(failures.isEmpty)

        let puts = server.requests.filter { $0.method == "PUT" }
        #expect(puts.count == 1 && !server.requests.contains { $0.path == "/db/_bulk_docs" })
        let put = try #require(puts.first)
        #expect(put.path == "/db/doc1" && put.query == "new_edits=false")
        let contentType = try #require(put.headers["content-type"])
        #expect(contentType.hasPrefix("multipart/related"))
        #expect(put.headers["content-length"] == String(put.body.count))
        let body = try MultipartBody(data: put.body, contentType: contentType)
        #expect(body.parts.count == 2)   // the document, then new.bin; old.txt stays a stub
        let document = try JSONValue.parse(body.parts[0].body).objectValue!
        #expect(document["_id"] == "doc1" && document["_rev"] == "2-bbbb")
        #expect(document["_revisions"] == ["start": 2, "ids": ["bbbb", "aaaa"]])
        let attachments = try #require(document["_attachments"]?.objectValue)
        #expect(attachments["new.bin"]?.objectValue?["follows"] == true)
        #expect(attachments["new.bin"]?.objectValue?["length"] == .int(Int64(bytes.count)))
        // md5- and the base64 MD5 of testBytes(300_000, seed: 5), computed by python3 hashlib
        // from the same generator, independently of the code under test.
        #expect(attachments["new.bin"]?.objectValue?["digest"] == "md5-4iwPm8NLiFOZtMrRtzLT/g==")
        #expect(attachments["old.txt"]?.objectValue?["stub"] == true)
        #expect(body.parts[1].fileName == "new.bin" && body.parts[1].body == bytes)
    }

    @Test func smallAttachmentsStayInTheBulkRequestByDefault() async throws {
        let server = try await CannedResponder { request, _ in .init(status: 201, body: "[]") }
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let store = try DocumentStore(path: dir.path("source.sqlite"))
        let revision = try Self.revision(deferredFrom: store, bytes: Data("tiny".utf8))
        let failures = try await CouchDatabase(url: server.url("db")).writeRevisions([revision])
        #expect(failures.isEmpty)
        #expect(server.requests.map(\.path) == ["/db/_bulk_docs"])
        #expect(String(decoding: server.requests[0].body, as: UTF8.self).contains(Data("tiny".utf8).base64EncodedString()))
    }

    @Test(arguments: [
        (403, #"{"error":"forbidden","reason":"only editors may write"}"#, "forbidden"),
        (413, #"{"error":"too_large","reason":"the request entity is too large"}"#, "too_large"),
        (400, #"{"error":"bad_request","reason":"invalid attachment"}"#, "bad_request"),
    ])
    func aRefusedDocumentIsReportedAndTheOthersAreWritten(status: Int, reply: String, error: String) async throws {
        let server = try await CannedResponder { request, _ in
            request.method == "PUT" ? .init(status: status, body: reply) : .init(status: 201, body: "[]")
        }
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let store = try DocumentStore(path: dir.path("source.sqlite"))
        let plain = ReplicatedRevision(id: "plain", rev: RevisionID("1-cccc")!, body: ["a": 1])
        let failures = try await Self.allMultipart(server.url("db")).writeRevisions([plain, try Self.revision(deferredFrom: store, bytes: Data("hello there".utf8))])
        #expect(failures.map(\.id) == ["doc1"] && failures.first?.error == error)
        #expect(server.requests.contains { $0.path == "/db/_bulk_docs" })
    }

    @Test func aWrongPasswordStopsThePushWithATypedErrorThatHidesIt() async throws {
        let server = try await CannedResponder { _, _ in .init(status: 401, body: #"{"error":"unauthorized","reason":"Name or password is incorrect."}"#) }
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let store = try DocumentStore(path: dir.path("source.sqlite"))
        var options = CouchClientOptions()
        options.multipartAttachmentThreshold = 0
        let remote = try CouchDatabase(url: server.url("db", user: "ann", password: "s3cret-pw"), options: options)
        do {
            _ = try await remote.writeRevisions([try Self.revision(deferredFrom: store, bytes: Data("x".utf8))])
            Issue.record("a 401 was not an error")
        } catch let error as ReplicationError {
            guard case .unauthorized = error else { Issue.record("unexpected \(error)"); return }
            #expect(!"\(error)".contains("s3cret-pw"))
        }
    }
}
