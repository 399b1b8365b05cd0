import DocumentStore
import Foundation

/// A revision written out as a `multipart/related` body in a temporary file, the form in
/// which CouchDB's replicator pushes documents with attachments: the document JSON first
/// (attachments marked `"follows": true`), then each attachment's raw bytes in a part of its
/// own.
///
/// The bytes are copied from the store a chunk at a time and uploaded from the file, so a
/// large attachment is never held whole in memory, and never as base64.
struct MultipartUpload {
    /// The file holding the body; ``remove()`` deletes it.
    let file: URL
    /// The boundary between parts.
    let boundary: String
    /// The body's size in bytes.
    let length: Int

    /// The `Content-Type` header value, boundary included.
    var contentType: String { "multipart/related; boundary=\"\(boundary)\"" }

    /// Writes `revision` to a new temporary file.
    /// - Throws: `ReplicationError.store` when the store lacks an attachment's bytes or the
    ///   file cannot be written.
    init(_ revision: TransferRevision) throws {
        boundary = RandomIdentifier.compactHex()
        file = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-upload-\(RandomIdentifier.compactHex()).multipart")
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw ReplicationError.store("cannot create the temporary upload file \(file.path); check that the temporary directory is writable")
        }
        do {
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            var written = 0
            func write(_ bytes: some DataProtocol) throws {
                try handle.write(contentsOf: bytes)
                written += bytes.count
            }
            var head: [UInt8] = Array("--\(boundary)\r\nContent-Type: application/json\r\n\r\n".utf8)
            try CouchDocumentCoding.appendMultipartHead(revision, to: &head)
            try write(head)
            for name in CouchDocumentCoding.followingAttachmentNames(revision) {
                let payload = revision.attachments[name]!
                let (contentType, length): (String, Int)
                switch payload {
                case .data(let type, let data, _): (contentType, length) = (type, data.count)
                case .deferred(let info, _): (contentType, length) = (info.contentType, info.length)
                case .stub: continue
                }
                let quoted = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                try write(Array(("\r\n--\(boundary)\r\nContent-Disposition: attachment; filename=\"\(quoted)\"\r\n"
                    + "Content-Type: \(contentType)\r\nContent-Length: \(length)\r\n\r\n").utf8))
                switch payload {
                case .data(_, let data, _):
                    try write(data)
                case .deferred(let info, let store):
                    var copied = 0
                    try store.readAttachment(digest: info.digest, chunkSize: 1 << 20) { chunk in
                        try write(chunk)
                        copied += chunk.count
                    }
                    guard copied == info.length else {
                        throw ReplicationError.store("attachment '\(name)' of \(revision.id) has \(copied) bytes in the local store, not \(info.length)")
                    }
                case .stub:
                    break
                }
            }
            try write(Array("\r\n--\(boundary)--\r\n".utf8))
            length = written
        } catch {
            try? FileManager.default.removeItem(at: file)
            if let error = error as? ReplicationError { throw error }
            throw ReplicationError.store("cannot write the upload of \(revision.id) to \(file.path): \(error)")
        }
    }

    /// Deletes the file.
    func remove() {
        try? FileManager.default.removeItem(at: file)
    }
}
