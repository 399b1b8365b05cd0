import CouchProtocol
import DocumentStore
import Foundation
import Testing
import TestSupport
import DocumentFormat
import HTTPSupport

/// The one document codec both sides use.
@Suite("Document codec")
struct DocumentCodecTests {
    static let bytes = Data([0, 1, 2, 255, 13, 10])

    @Test("A revision written as CouchDB JSON reads back as the same replicated revision")
    func roundTrip() throws {
        let rev = RevisionID("3-ccc")!
        let history = [rev, RevisionID("2-bbb")!, RevisionID("1-aaa")!]
        var members = CouchDocumentEncoder.members(id: "doc \"1\"/é", rev: rev, deleted: true,
                                                   body: ["name": "Tea\n", "n": 1, "list": [nil, "a"]])
        members["_revisions"] = CouchDocumentEncoder.revisions(rev: rev, history: history)
        let stub = AttachmentInfo(contentType: "text/plain", length: 5, digest: "md5-abc", revpos: 1)
        var buffer: [UInt8] = []
        try CouchDocumentEncoder.append(members, attachments: [
            "a.bin": .inline(contentType: "application/octet-stream", revpos: 3, digest: nil, data: Self.bytes),
            "old.txt": .stub(stub),
        ], to: &buffer)
        let object = try #require(try JSONValue.parse(Data(buffer)).objectValue)
        #expect(object["_revisions"] == ["start": 3, "ids": ["ccc", "bbb", "aaa"]])
        let back = try CouchDocument(object).replicatedRevision()
        #expect(back.id == "doc \"1\"/é" && back.rev == rev && back.deleted && back.history == history)
        #expect(back.body == ["name": "Tea\n", "n": 1, "list": [nil, "a"]])
        guard case .data(_, let data, 3) = back.attachments["a.bin"], case .stub(let info) = back.attachments["old.txt"] else {
            Issue.record("attachments changed form")
            return
        }
        #expect(data == Self.bytes && info == stub)
    }

    @Test("Attachments read from a store stream into the document as base64")
    func streamedFromStore() throws {
        let directory = try TemporaryDirectory("codec")
        let store = try DocumentStore(path: directory.path("s.sqlite"))
        let large = Data((0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let saved = try store.create(id: "d", body: [:], attachments: [.put(name: "big", contentType: "x/y", data: large)])
        let info = try #require(saved.attachments["big"])
        var buffer: [UInt8] = []
        try CouchDocumentEncoder.append(CouchDocumentEncoder.members(id: "d", rev: saved.rev, deleted: false, body: [:]),
                                        attachments: ["big": .inlineStreamed(info, from: store)], to: &buffer)
        let back = try CouchDocument(try #require(try JSONValue.parse(Data(buffer)).objectValue)).replicatedRevision()
        guard case .data("x/y", let data, info.revpos) = back.attachments["big"] else {
            Issue.record("attachment not inline")
            return
        }
        #expect(data == large)
    }

    @Test("Following parts are matched by file name and checked against length and MD5")
    func followingParts() throws {
        let digest = RevisionHasher.attachmentDigest(Self.bytes)
        let object: JSONObject = ["_id": "d", "_rev": "1-a", "_attachments": [
            "f.bin": ["follows": true, "content_type": "x/y", "length": .int(Int64(Self.bytes.count)), "digest": .string(digest)],
        ]]
        let part = MultipartPart(headers: ["content-disposition": #"attachment; filename="f.bin""#], body: Self.bytes)
        var document = try CouchDocument(object)
        try document.attachFollowingParts([part])
        #expect(document.attachments?["f.bin"] == .data(contentType: "x/y", data: Self.bytes, revpos: nil))
        #expect(try document.replicatedRevision().attachments.count == 1)

        var unnamed = try CouchDocument(object)
        try unnamed.attachFollowingParts([MultipartPart(headers: [:], body: Self.bytes)])
        #expect(unnamed.attachments?["f.bin"] == .data(contentType: "x/y", data: Self.bytes, revpos: nil))
    }

    @Test("A following part whose MD5 differs from the digest is refused, as is a wrong length or a missing part")
    func md5MismatchRefused() throws {
        let object: JSONObject = ["_id": "d", "_rev": "1-a", "_attachments": [
            "f.bin": ["follows": true, "content_type": "x/y", "digest": .string(RevisionHasher.attachmentDigest(Data("other".utf8)))],
        ]]
        var damaged = try CouchDocument(object)
        #expect(throws: CouchError.badRequest("Attachment 'f.bin' has digest \(RevisionHasher.attachmentDigest(Self.bytes)), but its digest says \(RevisionHasher.attachmentDigest(Data("other".utf8))); send the digest of the bytes sent")) {
            try damaged.attachFollowingParts([MultipartPart(headers: [:], body: Self.bytes)])
        }
        var short = try CouchDocument(["_id": "d", "_rev": "1-a", "_attachments": ["f.bin": ["follows": true, "length": 99]]])
        #expect(throws: CouchError.self) { try short.attachFollowingParts([MultipartPart(headers: [:], body: Self.bytes)]) }
        var missing = try CouchDocument(["_id": "d", "_rev": "1-a", "_attachments": ["f.bin": ["follows": true]]])
        #expect(throws: CouchError.self) { try missing.attachFollowingParts([]) }
        #expect(throws: CouchError.self) { try missing.replicatedRevision() }
        var stray = try CouchDocument(["_id": "d", "_rev": "1-a"])
        #expect(throws: CouchError.self) {
            try stray.attachFollowingParts([MultipartPart(headers: ["content-disposition": "attachment; filename=x"], body: Self.bytes)])
        }
        #expect(throws: CouchError.self) {
            try CouchDocument(["_id": "d", "_attachments": ["f": ["follows": true, "encoding": "deflate"]]])
        }
    }

    /// "hello, attachment hello hello hello hello\n" as CouchDB 3.4.3 keeps it (gzip), and
    /// the digest it gives: of the compressed bytes.
    static let text = Data("hello, attachment hello hello hello hello\n".utf8)
    static let gzipped = Data([
        0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xCB, 0x48, 0xCD, 0xC9, 0xC9, 0xD7,
        0x51, 0x48, 0x2C, 0x29, 0x49, 0x4C, 0xCE, 0xC8, 0x4D, 0xCD, 0x2B, 0x51, 0xC8, 0x00, 0x89, 0x60,
        0x92, 0x5C, 0x00, 0xDC, 0x22, 0x1B, 0xC1, 0x2A, 0x00, 0x00, 0x00,
    ])
    static let gzipDigest = "md5-BQXOyTrKhkbHM7ZxbGQz/A=="

    @Test("A gzip-encoded following part, as CouchDB's replicator sends it, is checked compressed and kept inflated")
    func gzipFollowingPart() throws {
        #expect(RevisionHasher.attachmentDigest(Self.gzipped) == Self.gzipDigest)
        let entry: JSONValue = ["follows": true, "content_type": "text/plain", "length": .int(Int64(Self.text.count)),
                                "encoding": "gzip", "encoded_length": .int(Int64(Self.gzipped.count)), "digest": .string(Self.gzipDigest)]
        let part = MultipartPart(headers: ["content-disposition": #"attachment; filename="a.txt""#, "content-encoding": "gzip"],
                                 body: Self.gzipped)
        var document = try CouchDocument(["_id": "d", "_rev": "1-a", "_attachments": ["a.txt": entry]])
        try document.attachFollowingParts([part])
        #expect(document.attachments?["a.txt"] == .data(contentType: "text/plain", data: Self.text, revpos: nil))

        // Damaged compressed bytes, a wrong inflated length, or a compressed part its entry
        // does not announce: refused, never stored as the attachment.
        var damaged = try CouchDocument(["_id": "d", "_rev": "1-a", "_attachments": ["a.txt": entry]])
        var flipped = Self.gzipped
        flipped[20] ^= 0xFF
        #expect(throws: CouchError.self) {
            try damaged.attachFollowingParts([MultipartPart(headers: part.headers, body: flipped)])
        }
        var wrongLength = entry.objectValue!
        wrongLength["length"] = 5
        var short = try CouchDocument(["_id": "d", "_rev": "1-a", "_attachments": ["a.txt": .object(wrongLength)]])
        #expect(throws: CouchError.self) { try short.attachFollowingParts([part]) }
        var plain = try CouchDocument(["_id": "d", "_rev": "1-a", "_attachments": [
            "a.txt": ["follows": true, "content_type": "text/plain", "digest": .string(Self.gzipDigest)],
        ]])
        #expect(throws: CouchError.self) { try plain.attachFollowingParts([part]) }
        #expect(throws: CouchError.badRequest("Attachment 'cut' is not a complete gzip stream (zlib status -5)")) { try AttachmentValidation.inflate(Self.gzipped.prefix(20), length: nil, of: "cut") }
        #expect(throws: CouchError.badRequest("Attachment 'bomb' inflates past 10 bytes")) { try AttachmentValidation.inflate(Self.gzipped, length: 10, of: "bomb") }

        // Inline data is the attachment's own bytes even when CouchDB stored them compressed,
        // so the digest (of the compressed form) is not held against them; the length is.
        let inline = try CouchDocument(["_id": "d", "_rev": "1-a", "_attachments": ["a.txt": [
            "content_type": "text/plain", "length": .int(Int64(Self.text.count)), "encoding": "gzip",
            "digest": .string(Self.gzipDigest), "data": .string(Self.text.base64EncodedString()),
        ]]])
        #expect(inline.attachments?["a.txt"] == .data(contentType: "text/plain", data: Self.text, revpos: nil))
    }

    @Test("A malformed _revisions is refused", arguments: [
        ["start": 0, "ids": ["a"]],
        ["start": 1, "ids": []],
        ["start": 1, "ids": ["a", "b"]],
        ["start": 2, "ids": ["a", ""]],
        ["start": 2, "ids": ["a", 7]],
        ["ids": ["a"]],
        "2-a",
    ] as [JSONValue])
    func badRevisionsRefused(revisions: JSONValue) {
        #expect(throws: CouchError.self) { try CouchDocument(["_id": "d", "_revisions": revisions]) }
    }

    @Test("_revisions must start at _rev")
    func revisionsMustMatchRev() throws {
        #expect(throws: CouchError.self) { try CouchDocument(["_id": "d", "_rev": "2-x", "_revisions": ["start": 3, "ids": ["x"]]]) }
        #expect(throws: CouchError.self) { try CouchDocument(["_id": "d", "_rev": "2-x", "_revisions": ["start": 2, "ids": ["y"]]]) }
        let document = try CouchDocument(["_id": "d", "_revisions": ["start": 2, "ids": ["b", "a"]]])
        #expect(try document.replicatedRevision().rev == RevisionID("2-b"))
    }

    @Test("Special members, ids and inline data are checked as CouchDB checks them")
    func specialMembers() throws {
        #expect(throws: CouchError.badSpecialMember("_foo")) { try CouchDocument(["_id": "d", "_foo": 1]) }
        #expect(throws: CouchError.badSpecialMember("_replication_foo")) { try CouchDocument(["_id": "d", "_replication_foo": 1]) }
        // The replicator's fields stay in the body, as CouchDB keeps them.
        let replicator = try CouchDocument(["_id": "d", "_replication_state": "completed", "_replication_stats": ["docs_read": 1]])
        #expect(replicator.body == ["_replication_state": "completed", "_replication_stats": ["docs_read": 1]])
        #expect(throws: CouchError.invalidRev) { try CouchDocument(["_rev": "nope"]) }
        #expect(throws: CouchError.self) { try CouchDocument(["_id": 3]) }
        #expect(throws: CouchError.self) { try CouchDocument(["_attachments": ["a": ["data": "!!!!"]]]) }
        let spaced = try CouchDocument(["_attachments": ["a": ["data": "AAEC\n/w0K"]]])
        #expect(spaced.attachments?["a"] == .data(contentType: "application/octet-stream", data: Self.bytes, revpos: nil))
        #expect(throws: CouchError.self) { try CouchDocument(["_id": "d", "_rev": "1-a", "_attachments": ["a": ["stub": true]]]).replicatedRevision() }
        #expect(CouchDocument.isDocumentID("_design/x") && !CouchDocument.isDocumentID("_local/x") && !CouchDocument.isDocumentID("_design/"))
        #expect(throws: CouchError.illegalDocID) { try CouchDocument.validate(id: "_x") }
    }

    @Test("Error bodies read back into the error they came from")
    func errorBodies() {
        let conflict = CouchError.conflict
        #expect(CouchError(status: 409, body: JSONWriter.couchDB.data(conflict.json)) == conflict)
        #expect(CouchError(status: 502, body: Data("<html>".utf8)) == CouchError(status: 502, error: "", reason: ""))
    }
}
