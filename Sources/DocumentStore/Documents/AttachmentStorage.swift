import Foundation
import GRDB
import DocumentFormat

/// Attachment bytes kept once per digest, in chunks so large ones can be streamed, and the
/// per-revision metadata kept as canonical JSON in the revision's row.
enum AttachmentStorage {
    /// Stores `data` under its digest unless already held; returns the digest.
    static func store(_ db: Database, data: Data) throws -> String {
        let digest = RevisionHasher.attachmentDigest(data)
        if try has(db, digest: digest) { return digest }
        try db.cachedStatement(sql: "INSERT INTO attachments(digest, length) VALUES (?, ?)")
            .execute(arguments: [digest, data.count])
        let insert = try db.cachedStatement(sql: "INSERT INTO attachment_chunks(digest, idx, data) VALUES (?, ?, ?)")
        var offset = 0
        var index = 0
        repeat {
            let end = min(offset + StoreSchema.chunkSize, data.count)
            try insert.execute(arguments: [digest, index, data.subdata(in: (data.startIndex + offset)..<(data.startIndex + end))])
            offset = end
            index += 1
        } while offset < data.count
        return digest
    }

    /// Whether the bytes of `digest` are held.
    static func has(_ db: Database, digest: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM attachments WHERE digest = ?"), arguments: [digest]) ?? false
    }

    /// Calls `body` with each stored chunk of `digest`, in order; `false` when not held.
    static func forEachChunk(_ db: Database, digest: String, _ body: (Data) throws -> Void) throws -> Bool {
        guard try has(db, digest: digest) else { return false }
        let cursor = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT data FROM attachment_chunks WHERE digest = ? ORDER BY idx"),
            arguments: [digest])
        while let row = try cursor.next() {
            try body(row[0] as Data)
        }
        return true
    }

    /// The whole bytes of `digest`, if held.
    static func data(_ db: Database, digest: String) throws -> Data? {
        var result = Data()
        let found = try forEachChunk(db, digest: digest) { result.append($0) }
        return found ? result : nil
    }

    /// Deletes the bytes of every digest no revision refers to any more.
    static func collectGarbage(_ db: Database) throws {
        var referenced = Set<String>()
        let cursor = try Row.fetchCursor(db, sql: "SELECT atts FROM revs WHERE atts IS NOT NULL")
        while let row = try cursor.next() {
            for info in decodeMetadata(row[0] as Data?).values { referenced.insert(info.digest) }
        }
        let held = try String.fetchAll(db, sql: "SELECT digest FROM attachments")
        for digest in held where !referenced.contains(digest) {
            try db.execute(sql: "DELETE FROM attachment_chunks WHERE digest = ?", arguments: [digest])
            try db.execute(sql: "DELETE FROM attachments WHERE digest = ?", arguments: [digest])
        }
    }

    /// The canonical JSON of a revision's attachment metadata, or `nil` when it has none.
    /// `order` is the order the revision lists its attachments in (CouchDB keeps the order
    /// they were sent in, and a later attachment `PUT` or `DELETE` hashes its new revision
    /// in that order); each name in it is stored with its position (`pos`). Names left out
    /// of it are listed after, by name, as are those of metadata written before positions
    /// were kept.
    /// `hashDigests`: for attachments whose digest in the revision's hash is not their own
    /// (compressible types, hashed as CouchDB stores them), that digest (`hash_digest`).
    static func encodeMetadata(_ attachments: [String: AttachmentInfo], order: [String] = [],
                               hashDigests: [String: String] = [:]) -> Data? {
        guard !attachments.isEmpty else { return nil }
        var positions: [String: Int] = [:]
        for name in order where attachments[name] != nil && positions[name] == nil { positions[name] = positions.count }
        var object = JSONObject()
        for (name, info) in attachments {
            var fields: JSONObject = ["content_type": .string(info.contentType), "length": .int(Int64(info.length)),
                                      "digest": .string(info.digest), "revpos": .int(Int64(info.revpos))]
            if let position = positions[name] { fields["pos"] = .int(Int64(position)) }
            if let hashDigest = hashDigests[name], hashDigest != info.digest { fields["hash_digest"] = .string(hashDigest) }
            object[name] = .object(fields)
        }
        return CanonicalJSON.encode(.object(object))
    }

    /// The digests stored for a revision's hash where they differ from the attachments' own
    /// (see `encodeMetadata`), by attachment name.
    static func decodeHashDigests(_ data: Data?) -> [String: String] {
        guard let data, let object = try? JSONValue.parseObject(data) else { return [:] }
        var digests: [String: String] = [:]
        for (name, value) in object {
            if let digest = value.objectValue?["hash_digest"]?.stringValue { digests[name] = digest }
        }
        return digests
    }

    /// The names in metadata written by `encodeMetadata`, in the order the revision lists
    /// them: by stored position, then the names without one by their UTF-8 bytes.
    static func decodeOrder(_ data: Data?) -> [String] {
        guard let data, let object = try? JSONValue.parseObject(data) else { return [] }
        var placed: [(position: Int64, name: String)] = []
        var rest: [String] = []
        for (name, value) in object {
            if let position = value.objectValue?["pos"]?.intValue { placed.append((position, name)) } else { rest.append(name) }
        }
        return placed.sorted { $0.position < $1.position }.map(\.name) + rest.sorted(by: JSONWriter.utf8Precedes)
    }

    /// Reads metadata written by `encodeMetadata`.
    static func decodeMetadata(_ data: Data?) -> [String: AttachmentInfo] {
        guard let data, let object = try? JSONValue.parseObject(data) else { return [:] }
        var result: [String: AttachmentInfo] = [:]
        for (name, value) in object {
            guard case .object(let fields) = value else { continue }
            result[name] = AttachmentInfo(
                contentType: fields["content_type"]?.stringValue ?? "application/octet-stream",
                length: Int(fields["length"]?.intValue ?? 0),
                digest: fields["digest"]?.stringValue ?? "",
                revpos: Int(fields["revpos"]?.intValue ?? 0))
        }
        return result
    }
}
