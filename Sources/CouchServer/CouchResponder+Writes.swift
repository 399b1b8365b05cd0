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
        switch try writeOperation(incoming, id: id, store: store) {
        case .create(let id, let body, let attachments):
            return try store.create(id: id, body: body, attachments: attachments)
        case .update(let id, let parent, let body, let attachments):
            return try store.update(id: id, parent: parent, body: body, attachments: attachments)
        case .delete(let id, let parent):
            return try store.delete(id: id, parent: parent)
        }
    }

    /// The store write for a new edit, after checking it against the parent revision: stubs
    /// must name attachments the parent has; attachments the parent has and the edit omits
    /// are removed.
    static func writeOperation(_ incoming: IncomingDocument, id: String, store: DocumentStore) throws -> DocumentStore.WriteOperation {
        if incoming.deleted {
            guard let parent = incoming.rev else {
                if try store.get(id: id) != nil { throw CouchError.conflict }
                throw CouchError.missing
            }
            return .delete(id: id, parent: parent)
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
            return .update(id: id, parent: parent, body: incoming.body, attachments: changes)
        }
        return .create(id: id, body: incoming.body, attachments: changes)
    }

    /// New edits of `_bulk_docs`: one transaction for the whole batch when every document
    /// goes through; otherwise each document on its own, so each gets its own result.
    static func saveBatch(_ documents: [IncomingDocument], store: DocumentStore) throws -> [JSONValue] {
        if let operations = try? documents.map({ try writeOperation($0, id: $0.id!, store: store) }),
           Set(documents.map { $0.id! }).count == documents.count,
           let saved = try? store.write(operations), saved.count == documents.count {
            return saved.map { ["ok": true, "id": .string($0.id), "rev": .string($0.rev.description)] }
        }
        var results = [JSONValue]()
        for document in documents {
            let id = document.id!
            do {
                let saved = try saveNow(document, id: id, store: store)
                results.append(["ok": true, "id": .string(id), "rev": .string(saved.rev.description)])
            } catch {
                let couch = CouchError.from(error)
                if couch.status >= 500 { throw couch }
                results.append(["id": .string(id), "error": .string(couch.error), "reason": .string(couch.reason)])
            }
        }
        return results
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
