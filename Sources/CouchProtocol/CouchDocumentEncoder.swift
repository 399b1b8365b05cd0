public import DocumentFormat
import Foundation

/// Writes revisions in CouchDB's JSON document form: `_id`, `_rev`, `_deleted`, `_revisions`
/// and the `_attachments` entries (stub, follows or inline), the one place both the server's
/// replies and the client's uploads get that shape from.
public enum CouchDocumentEncoder {
    /// The body's members with `_id`, `_rev` and, for a tombstone, `_deleted: true`.
    public static func members(id: String, rev: RevisionID, deleted: Bool, body: JSONObject) -> JSONObject {
        var members = body
        members["_id"] = .string(id)
        members["_rev"] = .string(rev.description)
        if deleted { members["_deleted"] = .bool(true) }
        return members
    }

    /// `_revisions` for `rev` with its ancestry `history` (newest first, `rev` itself first):
    /// `{"start": generation, "ids": [hashes]}`, stopping at the first gap in generations so
    /// the ancestry a receiver reads back is always contiguous.
    public static func revisions(rev: RevisionID, history: [RevisionID]) -> JSONValue {
        var ids: [JSONValue] = []
        var expected = rev.generation
        for ancestor in history.isEmpty ? [rev] : history {
            guard ancestor.generation == expected else { break }
            ids.append(.string(ancestor.hash))
            expected -= 1
        }
        return .object(["start": .int(Int64(rev.generation)), "ids": .array(ids)])
    }

    /// The `_attachments` entry of `attachment`, except the `data` of
    /// ``OutgoingAttachment/inlineStreamed(_:from:)``, which only ``append(_:attachments:to:)``
    /// writes, streaming it after the entry's other members.
    public static func entry(_ attachment: OutgoingAttachment) -> JSONObject {
        switch attachment {
        case .stub(let info):
            return fields(info, ["stub": .bool(true)])
        case .follows(let info):
            return fields(info, ["follows": .bool(true)])
        case .inline(let contentType, let revpos, let digest, let data):
            var entry: JSONObject = [
                "content_type": .string(contentType), "revpos": .int(Int64(revpos)),
                "data": .string(data.base64EncodedString()),
            ]
            if let digest { entry["digest"] = .string(digest) }
            return entry
        case .inlineStreamed(let info, _):
            return ["content_type": .string(info.contentType), "revpos": .int(Int64(info.revpos))]
        }
    }

    /// Appends the document `members` with `attachments` as its `_attachments` member (left
    /// out when there are none) to `buffer`, streaming the base64 of attachments read from
    /// their source a chunk at a time.
    /// - Throws: what the `AttachmentSource` throws when it fails or lacks an attachment's bytes.
    public static func append(_ members: JSONObject, attachments: [String: OutgoingAttachment],
                              to buffer: inout [UInt8]) throws {
        var members = members
        members["_attachments"] = nil
        if attachments.isEmpty {
            JSONWriter.couchDB.appendObject(members, to: &buffer)
            return
        }
        // Everything but the attachments goes through the plain writer; the attachments member
        // is written last, by hand, so stored bytes can be streamed into the buffer.
        var head: [UInt8] = []
        JSONWriter.couchDB.appendObject(members, to: &head)
        buffer.append(contentsOf: head.dropLast())
        if !members.isEmpty { buffer.append(UInt8(ascii: ",")) }
        buffer.append(contentsOf: "\"_attachments\":{".utf8)
        for (index, name) in attachments.keys.sorted().enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(name, to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            let attachment = attachments[name]!
            guard case .inlineStreamed(let info, let source) = attachment else {
                JSONWriter.couchDB.appendObject(entry(attachment), to: &buffer)
                continue
            }
            var entryBytes: [UInt8] = []
            JSONWriter.couchDB.appendObject(entry(attachment), to: &entryBytes)
            buffer.append(contentsOf: entryBytes.dropLast())
            buffer.append(contentsOf: ",\"data\":\"".utf8)
            try appendBase64(info, of: members["_id"]?.stringValue ?? "", named: name, from: source, to: &buffer)
            buffer.append(contentsOf: "\"}".utf8)
        }
        buffer.append(contentsOf: "}}".utf8)
    }

    /// The metadata members every stub and follows entry carries, plus `extra`.
    private static func fields(_ info: AttachmentInfo, _ extra: JSONObject) -> JSONObject {
        var entry: JSONObject = [
            "content_type": .string(info.contentType), "revpos": .int(Int64(info.revpos)),
            "digest": .string(info.digest), "length": .int(Int64(info.length)),
        ]
        for (key, value) in extra { entry[key] = value }
        return entry
    }

    /// Streams an attachment's bytes from its source as base64, a chunk at a time, so the raw
    /// bytes are never held whole.
    private static func appendBase64(_ info: AttachmentInfo, of id: String, named name: String,
                                     from source: any AttachmentSource, to buffer: inout [UInt8]) throws {
        var carry = Data()
        try source.streamAttachment(info, of: id, named: name, chunkSize: 3 * 65536) { chunk in
            carry.append(chunk)
            let usable = carry.count - carry.count % 3
            if usable > 0 {
                buffer.append(contentsOf: carry.prefix(usable).base64EncodedData())
                carry = Data(carry.dropFirst(usable))
            }
        }
        if !carry.isEmpty { buffer.append(contentsOf: carry.base64EncodedData()) }
    }
}
