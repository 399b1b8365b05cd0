import DocumentStore
import Foundation

/// Turning validated incoming documents into store writes, for both edit modes.
extension CouchResponder {
    /// Writes `incoming` as a new edit (`new_edits=true`): create, update or delete, with the
    /// attachments CouchDB keeps (stubs) or drops (absent from `_attachments`).
    func save(_ incoming: IncomingDocument, id: String, in database: Database) async throws -> DocumentRevision {
        let saved = try await StoreWork.run { try Self.saveNow(incoming, id: id, store: database.store) }
        database.didWrite()
        return saved
    }

    /// The blocking part of `save`.
    static func saveNow(_ incoming: IncomingDocument, id: String, store: DocumentStore) throws -> DocumentRevision {
        if incoming.deleted {
            guard let parent = incoming.rev else {
                if try store.get(id: id) != nil { throw CouchError.conflict }
                throw CouchError.missing
            }
            return try store.delete(id: id, parent: parent)
        }
        var existing: [String: AttachmentInfo] = [:]
        if let parent = incoming.rev {
            guard let parentRevision = try store.get(id: id, rev: parent) else { throw CouchError.conflict }
            existing = parentRevision.attachments
        }
        var changes = [AttachmentChange]()
        let wanted = incoming.attachments ?? [:]
        for (name, attachment) in wanted.sorted(by: { $0.key < $1.key }) {
            switch attachment {
            case .data(let contentType, let data, _):
                changes.append(.put(name: name, contentType: contentType, data: data))
            case .stub(_, _, let digest, _):
                guard let kept = existing[name], digest == nil || digest == kept.digest else {
                    throw CouchError(status: 412, error: "missing_stub",
                                     reason: "Attachment '\(name)' is a stub but the parent revision has no such attachment.")
                }
            case .follows:
                throw CouchError.badRequest("Attachment '\(name)' says follows but no multipart part carried it")
            }
        }
        for name in existing.keys.sorted() where wanted[name] == nil {
            changes.append(.remove(name: name))
        }
        if let parent = incoming.rev {
            return try store.update(id: id, parent: parent, body: incoming.body, attachments: changes)
        }
        return try store.create(id: id, body: incoming.body, attachments: changes)
    }

    /// The replicated revision (`new_edits=false`) for `incoming`; 400 when it lacks `_rev`.
    static func replicatedRevision(_ incoming: IncomingDocument, id: String, store: DocumentStore) throws -> ReplicatedRevision {
        guard let rev = incoming.rev ?? incoming.revisions?.first else {
            throw CouchError.badRequest("new_edits=false needs _rev on every document")
        }
        var attachments = [String: ReplicatedAttachment]()
        for (name, attachment) in incoming.attachments ?? [:] {
            switch attachment {
            case .data(let contentType, let data, let revpos):
                attachments[name] = .data(contentType: contentType, data: data, revpos: revpos ?? rev.generation)
            case .stub(let contentType, let length, let digest, let revpos):
                guard let digest else {
                    throw CouchError(status: 412, error: "missing_stub", reason: "Attachment stub '\(name)' has no digest")
                }
                var size = length
                if size == nil { size = try store.attachmentData(digest: digest)?.count }
                attachments[name] = .stub(AttachmentInfo(
                    contentType: contentType ?? "application/octet-stream", length: size ?? 0,
                    digest: digest, revpos: revpos ?? rev.generation))
            case .follows:
                throw CouchError.badRequest("Attachment '\(name)' says follows but no multipart part carried it")
            }
        }
        return ReplicatedRevision(
            id: id, rev: rev, deleted: incoming.deleted, body: incoming.body,
            history: incoming.revisions ?? [rev], attachments: attachments)
    }
}
