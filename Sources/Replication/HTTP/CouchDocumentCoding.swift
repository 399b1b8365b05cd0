import Crypto
import DocumentStore
import Foundation

/// Converts revisions between CouchDB's JSON document form (`_id`, `_rev`, `_deleted`,
/// `_revisions`, `_attachments`) and `TransferRevision`.
enum CouchDocumentCoding {
    struct ShapeError: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads a document as `_bulk_get` / `open_revs` return it (with `revs=true`).
    /// `following` holds, by attachment name, the bytes of the multipart parts that came after
    /// the document: each attachment marked `"follows": true` takes its bytes from there,
    /// checked against the stub's `length` and `digest`.
    static func decodeRevision(_ document: JSONObject, following: [String: Data] = [:]) throws -> TransferRevision {
        guard let id = document["_id"]?.stringValue else { throw ShapeError(description: "document without _id") }
        guard let revText = document["_rev"]?.stringValue, let rev = RevisionID(revText) else {
            throw ShapeError(description: "document \(id) without a valid _rev")
        }
        var history: [RevisionID] = [rev]
        if let revisions = document["_revisions"]?.objectValue {
            guard let start = revisions["start"]?.intValue, let ids = revisions["ids"]?.arrayValue,
                  start == Int64(rev.generation), !ids.isEmpty else {
                throw ShapeError(description: "document \(id) has a malformed _revisions member")
            }
            history = []
            for (offset, element) in ids.enumerated() {
                guard let hash = element.stringValue, !hash.isEmpty, Int(start) - offset >= 1 else {
                    throw ShapeError(description: "document \(id) has a malformed _revisions id")
                }
                history.append(RevisionID(generation: Int(start) - offset, hash: hash))
            }
            guard history[0] == rev else {
                throw ShapeError(description: "document \(id): _revisions does not start with _rev \(revText)")
            }
        }
        var body: JSONObject = [:]
        body.reserveCapacity(document.count)
        for (key, value) in document where !key.hasPrefix("_") { body[key] = value }
        var attachments: [String: AttachmentPayload] = [:]
        if let stubs = document["_attachments"] {
            guard let members = stubs.objectValue else {
                throw ShapeError(description: "document \(id) has a malformed _attachments member")
            }
            for (name, value) in members {
                attachments[name] = try decodeAttachment(value, name: name, documentID: id, following: following)
            }
        }
        let deleted = document["_deleted"]?.boolValue ?? false
        return TransferRevision(id: id, rev: rev, deleted: deleted, body: body, history: history, attachments: attachments)
    }

    private static func decodeAttachment(_ value: JSONValue, name: String, documentID: String,
                                         following: [String: Data]) throws -> AttachmentPayload {
        guard let meta = value.objectValue else {
            throw ShapeError(description: "attachment \(name) of \(documentID) is not an object")
        }
        let contentType = meta["content_type"]?.stringValue ?? "application/octet-stream"
        let revpos = Int(meta["revpos"]?.intValue ?? 0)
        if meta["follows"]?.boolValue == true {
            if let encoding = meta["encoding"]?.stringValue, encoding != "identity" {
                throw ShapeError(description: "attachment \(name) of \(documentID) came \(encoding)-encoded; it must be requested without compression")
            }
            guard let data = following[name] else {
                throw ShapeError(description: "attachment \(name) of \(documentID) is marked follows but no multipart part carried it")
            }
            if let length = meta["length"]?.intValue, length != Int64(data.count) {
                throw ShapeError(description: "attachment \(name) of \(documentID) is \(data.count) bytes, its stub says \(length)")
            }
            if let digest = meta["digest"]?.stringValue, digest.hasPrefix("md5-") {
                let actual = "md5-" + Data(Insecure.MD5.hash(data: data)).base64EncodedString()
                guard actual == digest else {
                    throw ShapeError(description: "attachment \(name) of \(documentID) has digest \(actual), its stub says \(digest)")
                }
            }
            return .data(contentType: contentType, data: data, revpos: revpos)
        }
        if let base64 = meta["data"]?.stringValue {
            guard let data = Data(base64Encoded: base64) else {
                throw ShapeError(description: "attachment \(name) of \(documentID) has invalid base64 data")
            }
            return .data(contentType: contentType, data: data, revpos: revpos)
        }
        guard meta["stub"]?.boolValue == true, let digest = meta["digest"]?.stringValue else {
            throw ShapeError(description: "attachment \(name) of \(documentID) has neither data nor a stub digest")
        }
        let length = Int(meta["length"]?.intValue ?? 0)
        return .stub(AttachmentInfo(contentType: contentType, length: length, digest: digest, revpos: revpos))
    }

    /// Appends a revision as a `new_edits=false` document: body, `_revisions`, and attachments
    /// inline (base64, streamed from the store for deferred ones) or as stubs.
    static func appendRevision(_ revision: TransferRevision, to buffer: inout [UInt8]) throws {
        try appendRevision(revision, attachmentsFollow: false, to: &buffer)
    }

    /// The same document for the JSON part of a `multipart/related` upload: attachments whose
    /// bytes are sent are marked `"follows": true` with their length (and digest when known),
    /// and their bytes go in the parts after it, in the order of ``followingAttachmentNames(_:)``.
    static func appendMultipartHead(_ revision: TransferRevision, to buffer: inout [UInt8]) throws {
        try appendRevision(revision, attachmentsFollow: true, to: &buffer)
    }

    /// The attachments whose bytes follow the JSON part of a multipart upload, in part order.
    static func followingAttachmentNames(_ revision: TransferRevision) -> [String] {
        revision.attachments.keys.sorted().filter {
            if case .stub = revision.attachments[$0]! { return false }
            return true
        }
    }

    private static func appendRevision(_ revision: TransferRevision, attachmentsFollow: Bool, to buffer: inout [UInt8]) throws {
        var members = revision.body
        members["_id"] = .string(revision.id)
        members["_rev"] = .string(revision.rev.description)
        if revision.deleted { members["_deleted"] = .bool(true) }
        var ids: [JSONValue] = []
        var expected = revision.rev.generation
        for ancestor in revision.history {
            guard ancestor.generation == expected else { break }
            ids.append(.string(ancestor.hash))
            expected -= 1
        }
        members["_revisions"] = .object(["start": .int(Int64(revision.rev.generation)), "ids": .array(ids)])
        // Everything but the attachments goes through the plain writer; the attachments member
        // is written last, by hand, so deferred bytes can be streamed into the buffer.
        var head: [UInt8] = []
        JSONWriter.couchDB.appendObject(members, to: &head)
        if revision.attachments.isEmpty {
            buffer.append(contentsOf: head)
            return
        }
        buffer.append(contentsOf: head.dropLast())
        buffer.append(contentsOf: ",\"_attachments\":{".utf8)
        var first = true
        for name in revision.attachments.keys.sorted() {
            if !first { buffer.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter.appendString(name, to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            switch revision.attachments[name]! {
            case .data(let contentType, let data, let revpos):
                buffer.append(contentsOf: "{\"content_type\":".utf8)
                JSONWriter.appendString(contentType, to: &buffer)
                if attachmentsFollow {
                    let digest = "md5-" + Data(Insecure.MD5.hash(data: data)).base64EncodedString()
                    appendFollows(revpos: revpos, length: data.count, digest: digest, to: &buffer)
                } else {
                    buffer.append(contentsOf: ",\"revpos\":\(revpos),\"data\":\"".utf8)
                    buffer.append(contentsOf: data.base64EncodedData())
                    buffer.append(contentsOf: "\"}".utf8)
                }
            case .stub(let info):
                buffer.append(contentsOf: "{\"stub\":true,\"content_type\":".utf8)
                JSONWriter.appendString(info.contentType, to: &buffer)
                buffer.append(contentsOf: ",\"length\":\(info.length),\"revpos\":\(info.revpos),\"digest\":".utf8)
                JSONWriter.appendString(info.digest, to: &buffer)
                buffer.append(UInt8(ascii: "}"))
            case .deferred(let info, let store):
                buffer.append(contentsOf: "{\"content_type\":".utf8)
                JSONWriter.appendString(info.contentType, to: &buffer)
                if attachmentsFollow {
                    appendFollows(revpos: info.revpos, length: info.length, digest: info.digest, to: &buffer)
                } else {
                    buffer.append(contentsOf: ",\"revpos\":\(info.revpos),\"data\":\"".utf8)
                    try appendBase64(digest: info.digest, from: store, to: &buffer)
                    buffer.append(contentsOf: "\"}".utf8)
                }
            }
        }
        buffer.append(contentsOf: "}}".utf8)
    }

    /// The rest of an attachment entry whose bytes follow in a multipart part.
    private static func appendFollows(revpos: Int, length: Int, digest: String, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: ",\"revpos\":\(revpos),\"length\":\(length),\"digest\":".utf8)
        JSONWriter.appendString(digest, to: &buffer)
        buffer.append(contentsOf: ",\"follows\":true}".utf8)
    }

    /// Streams an attachment's bytes from the store as base64, a chunk at a time, so the raw
    /// bytes are never held whole.
    private static func appendBase64(digest: String, from store: DocumentStore, to buffer: inout [UInt8]) throws {
        var carry = Data()
        var found = false
        try store.readAttachment(digest: digest, chunkSize: 3 * 65536) { chunk in
            found = true
            carry.append(chunk)
            let usable = carry.count - carry.count % 3
            if usable > 0 {
                buffer.append(contentsOf: carry.prefix(usable).base64EncodedData())
                carry = Data(carry.dropFirst(usable))
            }
        }
        if !carry.isEmpty { buffer.append(contentsOf: carry.base64EncodedData()) }
        if !found, try !store.hasAttachment(digest: digest) {
            throw ShapeError(description: "attachment \(digest) is missing from the local store")
        }
    }
}
