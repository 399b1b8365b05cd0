import Crypto
import Foundation
import Testing
@testable import DocumentStore
import TestSupport
import DocumentFormat

@Suite struct AttachmentTests {
    @Test("A revision keeps its attachments in the order its write listed them; without one, by name")
    func attachmentOrderIsKept() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let bytes = Data([1, 2, 3])
        let received = try RevisionBody(json: Array(#"{"_attachments":{"y.bin":{},"x.bin":{}},"n":1}"#.utf8))
        let listed = try store.create(id: "listed", body: ["n": 1], attachments: [
            .put(name: "x.bin", contentType: "image/png", data: bytes), .put(name: "y.bin", contentType: "image/png", data: bytes),
        ], received: received)
        #expect(try store.attachmentOrder(id: "listed", rev: listed.rev) == ["y.bin", "x.bin"])
        // Inherited attachments keep the parent's order when the edit lists it first.
        let kept = try store.update(id: "listed", parent: listed.rev, body: ["n": 2], attachments: [
            .put(name: "a.bin", contentType: "image/png", data: bytes),
        ], received: try RevisionBody(canonical: ["n": 2], attachmentOrder: ["a.bin", "y.bin", "x.bin"]))
        #expect(try store.attachmentOrder(id: "listed", rev: kept.rev) == ["a.bin", "y.bin", "x.bin"])
        let unlisted = try store.create(id: "unlisted", body: [:], attachments: [
            .put(name: "y.bin", contentType: "image/png", data: bytes), .put(name: "x.bin", contentType: "image/png", data: bytes),
        ])
        #expect(try store.attachmentOrder(id: "unlisted", rev: unlisted.rev) == ["x.bin", "y.bin"])
        #expect(try store.attachmentOrder(id: "missing", rev: unlisted.rev).isEmpty)
        // Metadata written before positions were kept reads in name order.
        let old = AttachmentInfo(contentType: "image/png", length: 3, digest: "md5-x", revpos: 1)
        #expect(AttachmentStorage.decodeOrder(AttachmentStorage.encodeMetadata(["b": old, "a": old])) == ["a", "b"])
    }

    @Test func addReplaceRemoveAndInherit() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let photo = Data((0..<1000).map { UInt8($0 % 251) })
        let one = try store.create(id: "r", body: ["name": "Pie"], attachments: [
            .put(name: "photo.jpg", contentType: "image/jpeg", data: photo),
            .put(name: "notes.txt", contentType: "text/plain", data: Data("crisp".utf8)),
        ])
        let info = try #require(one.attachments["photo.jpg"])
        #expect(info == AttachmentInfo(contentType: "image/jpeg", length: 1000,
                                       digest: "md5-" + Data(Insecure.MD5.hash(data: photo)).base64EncodedString(),
                                       revpos: 1))
        // The ID CouchDB 3.4.3 gave the same write (`PUT /db/r` of `{"name":"Pie"}` with
        // `notes.txt` then `photo.jpg` inline): it hashes the text attachment by the MD5 of its
        // gzip-compressed bytes, as it stores it. The store keeps each attachment's own digest.
        #expect(one.attachments["notes.txt"]?.digest == "md5-zZLLUFQp4UIeD1YADxfcWQ==")
        #expect(one.attachments["photo.jpg"]?.digest == "md5-ok8ePvZpUOEyfyEOOZe6LA==")
        #expect(one.rev == rev("1-d52a53111da25173adff04c6986c980e"))

        let two = try store.update(id: "r", parent: one.rev, body: ["name": "Apple pie"])
        #expect(two.attachments == one.attachments)                  // inherited unchanged
        #expect(try store.attachment(id: "r", name: "photo.jpg")?.data == photo)

        let three = try store.update(id: "r", parent: two.rev, body: ["name": "Apple pie"], attachments: [
            .put(name: "notes.txt", contentType: "text/plain", data: Data("crisper".utf8)),
            .remove(name: "photo.jpg"),
        ])
        #expect(three.attachments.keys.sorted() == ["notes.txt"])
        #expect(three.attachments["notes.txt"]?.revpos == 3)
        #expect(try store.get(id: "r")?.attachments == three.attachments)
        #expect(try store.attachment(id: "r", name: "photo.jpg") == nil)
        #expect(try store.attachment(id: "r", rev: one.rev, name: "photo.jpg")?.data == photo)
        #expect(try store.attachment(id: "r", name: "notes.txt")?.data == Data("crisper".utf8))
        #expect(try store.attachment(id: "r", rev: two.rev, name: "notes.txt")?.data == Data("crisp".utf8))
    }

    @Test("Compressible types are CouchDB's defaults, and their digest is of the bytes gzip-compressed as CouchDB does")
    func compressedAttachmentDigests() {
        for type in ["text/plain", "TEXT/HTML; charset=utf-8", " text/x-anything", "application/json", "application/xml ; q=1",
                     "Application/JavaScript"] {
            #expect(CompressedAttachmentDigest.isCompressible(type), "\(type)")
        }
        for type in ["image/png", "application/jsonp", "application/json x", "application/octet-stream", "texts/plain", ""] {
            #expect(!CompressedAttachmentDigest.isCompressible(type), "\(type)")
        }
        // Digests CouchDB 3.4.3 reported for text attachments holding these bytes.
        #expect(CompressedAttachmentDigest.compressedDigest(of: Data("crisp".utf8)) == "md5-wpuP+Lv2C6jctKtNL1TeWw==")
        #expect(CompressedAttachmentDigest.compressedDigest(of: Data()) == "md5-cCkGbCesb17xjWYNV0GXmg==")
        #expect(CompressedAttachmentDigest.hashDigest(of: Data("crisp".utf8), contentType: "image/png")
                == RevisionHasher.attachmentDigest(Data("crisp".utf8)))
    }

    @Test("A text attachment kept from a parent hashes by its compressed digest, stored once for later revisions")
    func inheritedTextAttachmentHashesCompressed() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let one = try store.create(id: "t", body: ["n": 1], attachments: [.put(name: "a.txt", contentType: "text/plain", data: Data("crisp".utf8))])
        let two = try store.update(id: "t", parent: one.rev, body: ["n": 2])
        let compressed = AttachmentInfo(contentType: "text/plain", length: 5, digest: "md5-wpuP+Lv2C6jctKtNL1TeWw==", revpos: 1)
        #expect(two.rev == (try RevisionHasher.revisionID(parent: one.rev, deleted: false, body: ["n": 2], attachments: ["a.txt": compressed])))
        #expect(two.attachments["a.txt"]?.digest == RevisionHasher.attachmentDigest(Data("crisp".utf8)))
    }

    @Test func sameBytesAreStoredOnce() throws {
        let (store, directory) = try makeStore()
        let data = Data(repeating: 7, count: 5000)
        let a = try store.create(id: "a", body: [:], attachments: [.put(name: "x", contentType: "application/octet-stream", data: data)])
        try store.create(id: "b", body: [:], attachments: [.put(name: "y", contentType: "application/octet-stream", data: data)])
        try store.update(id: "a", parent: a.rev, body: ["changed": true])
        #expect(try countRows(directory.path(), "SELECT count(*) FROM attachments") == 1)
        #expect(try store.hasAttachment(digest: RevisionHasher.attachmentDigest(data)))
        #expect(try store.attachmentData(digest: RevisionHasher.attachmentDigest(data)) == data)
        #expect(try store.attachmentData(digest: "md5-none") == nil)
    }

    @Test func largeAttachmentsStreamInChunks() throws {
        let (store, directory) = try makeStore()
        _ = directory
        var generator = SystemRandomNumberGenerator()
        let big = Data((0..<700_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let made = try store.create(id: "big", body: [:], attachments: [.put(name: "blob", contentType: "application/octet-stream", data: big)])
        let digest = try #require(made.attachments["blob"]?.digest)
        var pieces: [Int] = []
        var assembled = Data()
        try store.readAttachment(digest: digest, chunkSize: 100_000) { chunk in
            pieces.append(chunk.count)
            assembled.append(chunk)
        }
        #expect(assembled == big)
        #expect(pieces == Array(repeating: 100_000, count: 7))
        #expect(throws: DocumentStoreError.notFound(id: "md5-missing")) {
            try store.readAttachment(digest: "md5-missing") { _ in }
        }
    }

    @Test func deletingDropsAttachmentsFromTheTombstone() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let made = try store.create(id: "a", body: [:], attachments: [.put(name: "x", contentType: "text/plain", data: Data("1".utf8))])
        let gone = try store.delete(id: "a", parent: made.rev)
        #expect(gone.attachments.isEmpty)
        #expect(try store.attachment(id: "a", name: "x") == nil)
    }
}

/// A CouchDB server digests the compressed bytes of the attachments it keeps gzip-compressed;
/// a store that pulled the bytes themselves holds them under its own digest. A later stub
/// from that server names the server's digest, and still finds the attachment.
@Suite struct StubUnderAnotherDigestTests {
    @Test func aStubFindsTheSameAttachmentByNameRevposAndLength() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let text = Data("hello, attachment\n".utf8)
        let first = RevisionID("1-11111111111111111111111111111111")!
        try store.insertRevisions([ReplicatedRevision(id: "d", rev: first, body: ["v": 1],
                                                      attachments: ["a.txt": .data(contentType: "text/plain", data: text, revpos: 1)])])
        let serverDigest = "md5-BQXOyTrKhkbHM7ZxbGQz/A=="
        let second = RevisionID("2-22222222222222222222222222222222")!
        try store.insertRevisions([ReplicatedRevision(
            id: "d", rev: second, body: ["v": 2], history: [second, first],
            attachments: ["a.txt": .stub(AttachmentInfo(contentType: "text/plain", length: text.count, digest: serverDigest, revpos: 1))])])
        #expect(try store.attachment(id: "d", name: "a.txt")?.data == text)
        #expect(try store.get(id: "d")?.rev == second)

        // A stub for an attachment the document never had (another name, revpos or length)
        // is still a missing attachment, and nothing is written.
        for (name, revpos, length) in [("b.txt", 1, text.count), ("a.txt", 2, text.count), ("a.txt", 1, 3)] {
            let third = RevisionID("3-33333333333333333333333333333333")!
            #expect(throws: DocumentStoreError.self) {
                try store.insertRevisions([ReplicatedRevision(
                    id: "d", rev: third, body: ["v": 3], history: [third, second, first],
                    attachments: [name: .stub(AttachmentInfo(contentType: "text/plain", length: length, digest: serverDigest, revpos: revpos))])])
            }
        }
        #expect(try store.get(id: "d")?.rev == second)
    }
}
