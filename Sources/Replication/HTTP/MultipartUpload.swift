import CouchProtocol
import Foundation
import DocumentFormat
import HTTPSupport

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
    /// The `Content-Type` header value, boundary included.
    let contentType: String
    /// The body's size in bytes.
    let length: Int

    /// Writes `revision` to a new temporary file.
    /// - Throws: `ReplicationError.store` when the store lacks an attachment's bytes or the
    ///   file cannot be written.
    init(_ revision: ReplicatedRevision) throws {
        file = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-upload-\(RandomIdentifier.compactHex()).multipart")
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw ReplicationError.store("cannot create the temporary upload file \(file.path); check that the temporary directory is writable")
        }
        do {
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            var writer = MultipartWriter(output: FileOutput(handle: handle), boundary: RandomIdentifier.compactHex())
            var head: [UInt8] = []
            try revision.appendDocument(attachmentsFollow: true, to: &head)
            try writer.appendPart(headers: [("Content-Type", "application/json")], body: head)
            for name in revision.followingAttachmentNames {
                switch revision.attachments[name]! {
                case .data(let type, let data, _):
                    try writer.appendPart(headers: MultipartWriter<FileOutput>.attachmentHeaders(name: name, contentType: type, length: data.count),
                                          body: data)
                case .deferred(let info, let source):
                    try writer.beginPart(headers: MultipartWriter<FileOutput>.attachmentHeaders(
                        name: name, contentType: info.contentType, length: info.length))
                    var copied = 0
                    try source.streamAttachment(info, of: revision.id, named: name, chunkSize: 1 << 20) { chunk in
                        try writer.write(chunk)
                        copied += chunk.count
                    }
                    guard copied == info.length else {
                        throw ReplicationError.store("attachment '\(name)' of \(revision.id) has \(copied) bytes in the local store, not \(info.length)")
                    }
                case .stub:
                    continue
                }
            }
            contentType = writer.contentType("related")
            length = try writer.finish().written
        } catch {
            try? FileManager.default.removeItem(at: file)
            if let error = error as? ReplicationError { throw error }
            throw ReplicationError.store("cannot write the upload of \(revision.id) to \(file.path): \(error)", cause: error)
        }
    }

    /// Deletes the file.
    func remove() {
        try? FileManager.default.removeItem(at: file)
    }

    /// The upload file as the writer's output: bytes go straight to it, and are counted.
    private struct FileOutput: MultipartOutput {
        let handle: FileHandle
        private(set) var written = 0

        init(handle: FileHandle) {
            self.handle = handle
        }

        mutating func write(_ bytes: some DataProtocol) throws {
            try handle.write(contentsOf: bytes)
            written += bytes.count
        }
    }
}
