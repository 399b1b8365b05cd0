public import Foundation
import GRDB
public import DocumentFormat

extension DocumentStoreReading {
    /// An attachment of the winner (or of `rev`) with its bytes; nil if there is none.
    public func attachment(id: String, rev: RevisionID? = nil, name: String) throws -> (info: AttachmentInfo, data: Data)? {
        try connection.reading { db in
            guard let doc = try TreeRows.doc(db, id: id) else { return nil }
            let row: RevRow?
            if let rev {
                row = try TreeRows.rev(db, docNum: doc.docNum, rev: rev)
            } else {
                row = doc.deleted ? nil : try TreeRows.rev(db, revNum: doc.winnerRevNum)
            }
            guard let row, let info = AttachmentStorage.decodeMetadata(row.atts)[name],
                  let data = try AttachmentStorage.data(db, digest: info.digest)
            else { return nil }
            return (info, data)
        }
    }

    /// The names of the attachments of revision `rev` of document `id`, in the order the
    /// revision lists them (the order they were sent in, as CouchDB keeps it); empty when
    /// the revision is not held or has none. An attachment `PUT` or `DELETE` on its own
    /// hashes its new revision in this order, as CouchDB does.
    public func attachmentOrder(id: String, rev: RevisionID) throws -> [String] {
        try connection.reading { db in
            guard let doc = try TreeRows.doc(db, id: id), let row = try TreeRows.rev(db, docNum: doc.docNum, rev: rev) else { return [] }
            return AttachmentStorage.decodeOrder(row.atts)
        }
    }

    /// The bytes stored under `digest`, if held.
    public func attachmentData(digest: String) throws -> Data? {
        try connection.reading { db in try AttachmentStorage.data(db, digest: digest) }
    }

    /// Whether the bytes of `digest` are held (so a replica may send a stub for them).
    public func hasAttachment(digest: String) throws -> Bool {
        try connection.reading { db in try AttachmentStorage.has(db, digest: digest) }
    }

    /// Streams the bytes of `digest` to `body` in pieces of `chunkSize` bytes (the last may be
    /// shorter) without holding the whole attachment in memory; `.notFound` if not held.
    public func readAttachment(digest: String, chunkSize: Int = 65536, _ body: (Data) throws -> Void) throws {
        let size = max(1, chunkSize)
        try connection.reading { db in
            var pending = Data()
            let found = try AttachmentStorage.forEachChunk(db, digest: digest) { chunk in
                pending.append(chunk)
                while pending.count >= size {
                    try body(pending.prefix(size))
                    pending = Data(pending.dropFirst(size))
                }
            }
            guard found else { throw DocumentStoreError.notFound(id: digest) }
            if !pending.isEmpty { try body(pending) }
        }
    }
}


extension DocumentStore: AttachmentSource {
    /// Streams a held attachment's bytes; ``DocumentStoreError/missingAttachment(id:name:digest:)``
    /// when the store does not hold them, so a writer names the attachment it could not send.
    public func streamAttachment(_ info: AttachmentInfo, of id: String, named name: String, chunkSize: Int,
                                 _ body: (Data) throws -> Void) throws {
        do {
            try readAttachment(digest: info.digest, chunkSize: chunkSize, body)
        } catch DocumentStoreError.notFound {
            throw DocumentStoreError.missingAttachment(id: id, name: name, digest: info.digest)
        }
    }
}
