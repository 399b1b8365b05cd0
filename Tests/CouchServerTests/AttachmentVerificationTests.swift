import InteropSupport
import CouchServer
import DocumentStore
import Foundation
import Testing
import TestSupport
import DocumentFormat

/// Declared attachment lengths and digests are checked against the bytes, and control
/// characters never reach multipart part headers (issue #9).
@Suite struct AttachmentVerificationTests {
    static let bytes = Data("hello".utf8)
    static let rev1 = "1-0123456789abcdef0123456789abcdef"
    static let rev2 = "2-fedcba9876543210fedcba9876543210"

    static func revisions(_ rev: String) -> JSONValue {
        let parts = rev.split(separator: "-")
        return ["start": .int(Int64(parts[0])!), "ids": [.string(String(parts[1]))]]
    }

    /// A `new_edits=false` document with one inline attachment `entry`.
    static func replicated(_ rev: String, _ name: String, _ entry: JSONValue) -> JSONValue {
        ["_id": "doc", "_rev": .string(rev), "_revisions": revisions(rev), "_attachments": [name: entry]]
    }

    static func error(_ reply: HTTPReply) throws -> String? { try reply.json().objectValue?["error"]?.stringValue }

    @Test("new_edits=false: inline bytes and stubs must match their declared length and digest")
    func declaredLengthAndDigest() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/db", headers: server.auth).status == 201)
            let data = JSONValue.string(Self.bytes.base64EncodedString())
            let digest = JSONValue.string(RevisionHasher.attachmentDigest(Self.bytes))

            let longer = try await client.send("PUT", "/db/doc?new_edits=false", json: Self.replicated(Self.rev1, "a.txt", [
                "content_type": "text/plain", "data": data, "length": 999_999]), headers: server.auth)
            #expect(longer.status == 400)
            #expect(try Self.error(longer) == "bad_request")
            let forged = try await client.send("PUT", "/db/doc?new_edits=false", json: Self.replicated(Self.rev1, "a.txt", [
                "content_type": "text/plain", "data": data, "digest": "md5-AAAAAAAAAAAAAAAAAAAAAA=="]), headers: server.auth)
            #expect(forged.status == 400)
            let bulk = try await client.send("POST", "/db/_bulk_docs", json: [
                "new_edits": false,
                "docs": [Self.replicated(Self.rev1, "a.txt", ["content_type": "text/plain", "data": data, "length": 4])],
            ], headers: server.auth)
            #expect(bulk.status == 400)
            #expect(try await client.send("GET", "/db/doc").status == 404)

            let good = try await client.send("PUT", "/db/doc?new_edits=false", json: Self.replicated(Self.rev1, "a.txt", [
                "content_type": "text/plain", "data": data, "length": 5, "digest": digest]), headers: server.auth)
            #expect(good.status == 201)
            var second = Self.replicated(Self.rev2, "a.txt", ["content_type": "text/plain", "stub": true, "length": 999_999, "digest": digest, "revpos": 1])
            second = .object(second.objectValue!.merging(["_revisions": ["start": 2, "ids": ["fedcba9876543210fedcba9876543210", "0123456789abcdef0123456789abcdef"]]]) { $1 })
            let lyingStub = try await client.send("PUT", "/db/doc?new_edits=false", json: second, headers: server.auth)
            #expect(lyingStub.status == 400)
            #expect(try Self.error(lyingStub) == "bad_request")
            #expect(try await client.send("GET", "/db/doc").json().objectValue?["_rev"] == .string(Self.rev1))
            let info = try await client.send("GET", "/db/doc?rev=\(Self.rev1)").json().objectValue?["_attachments"]?.objectValue?["a.txt"]
            #expect(info?.objectValue?["length"] == 5)
        }
    }

    @Test("A multipart PUT whose part differs from its declared length or digest is refused")
    func multipartPartChecked() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            #expect(try await server.client.send("PUT", "/db", headers: server.auth).status == 201)
            for entry: JSONValue in [
                ["content_type": "text/plain", "follows": true, "length": 999_999],
                ["content_type": "text/plain", "follows": true, "length": 5, "digest": "md5-AAAAAAAAAAAAAAAAAAAAAA=="],
            ] {
                let boundary = "b0undary"
                var headers = server.auth
                headers["Content-Type"] = "multipart/related; boundary=\"\(boundary)\""
                let body = try ServerBehaviourTests.multipartRelated(doc: Self.replicated(Self.rev1, "a.txt", entry), attachmentName: "a.txt",
                                                                     data: Self.bytes, boundary: boundary)
                let reply = try await server.client.send("PUT", "/db/doc?new_edits=false", headers: headers, body: body)
                #expect(reply.status == 400)
                #expect(try Self.error(reply) == "bad_request")
            }
            #expect(try await server.client.send("GET", "/db/doc").status == 404)
        }
    }

    @Test("CR, LF and other control characters in attachment names or content types get 400")
    func controlCharactersRefused() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/db", headers: server.auth).status == 201)
            let data = JSONValue.string(Self.bytes.base64EncodedString())
            let entries: [(String, JSONValue)] = [
                ("a\r\nX-Injected: 1", ["content_type": "text/plain", "data": data]),
                ("a.txt", ["content_type": "text/plain\r\nX-Injected: 1", "data": data]),
                ("nul\u{0}name", ["content_type": "text/plain", "data": data]),
            ]
            for (name, entry) in entries {
                let replicated = try await client.send("PUT", "/db/doc?new_edits=false", json: Self.replicated(Self.rev1, name, entry), headers: server.auth)
                #expect(replicated.status == 400)
                #expect(try Self.error(replicated) == "bad_request")
                let edited = try await client.send("PUT", "/db/doc", json: ["_attachments": [name: entry]], headers: server.auth)
                #expect(edited.status == 400)
            }
            let standalone = try await client.send("PUT", "/db/doc2/a%0D%0AX-Injected:%201", headers: server.auth, body: Self.bytes)
            #expect(standalone.status == 400)
            #expect(try await client.send("GET", "/db/doc").status == 404)
            #expect(try await client.send("GET", "/db/doc2").status == 404)
        }
    }
}
