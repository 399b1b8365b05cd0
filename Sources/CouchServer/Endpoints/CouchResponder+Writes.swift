import CouchProtocol
import DocumentStore
import Foundation
import DocumentFormat

/// Turning validated incoming documents into store writes, for both edit modes.
extension CouchResponder {
    /// Writes `incoming` as a new edit (`new_edits=true`): create, update or delete, with the
    /// attachments CouchDB keeps (stubs) or drops (absent from `_attachments`).
    func save(_ incoming: CouchDocument, id: String, in database: Database) async throws -> DocumentRevision {
        let saved = try await database.store.withWriter { store in try Self.saveNow(incoming, id: id, store: store) }
        database.didWrite()
        return saved
    }

    /// The blocking part of `save`.
    static func saveNow(_ incoming: CouchDocument, id: String, store: some DocumentStoreWriting) throws -> DocumentRevision {
        switch try writeOperation(incoming, id: id, store: store) {
        case .create(let id, let body, let attachments, let received):
            return try store.create(id: id, body: body, attachments: attachments, received: received)
        case .update(let id, let parent, let body, let attachments, let received):
            return try store.update(id: id, parent: parent, body: body, attachments: attachments, received: received)
        case .delete(let id, let parent, let received):
            return try store.delete(id: id, parent: parent, received: received)
        }
    }

    /// The store write for a new edit, after checking it against the parent revision: stubs
    /// must name attachments the parent has; attachments the parent has and the edit omits
    /// are removed. The revision ID is hashed from the body as received, when the document
    /// carries it (``CouchDocument/revisionBody``).
    static func writeOperation(_ incoming: CouchDocument, id: String, store: some DocumentStoreReading) throws -> DocumentStore.WriteOperation {
        if incoming.deleted {
            guard let parent = incoming.rev else {
                if try store.get(id: id) != nil { throw CouchError.conflict }
                throw CouchError.missing
            }
            return .delete(id: id, parent: parent, received: incoming.revisionBody)
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
                    throw CouchError.missingStub("Attachment '\(name)' is a stub but the parent revision has no such attachment.")
                }
            case .follows:
                throw CouchError.badRequest("Attachment '\(name)' says follows but no multipart part carried it")
            }
        }
        for name in existing.keys.sorted() where wanted[name] == nil {
            changes.append(.remove(name: name))
        }
        if let parent = incoming.rev {
            return .update(id: id, parent: parent, body: incoming.body, attachments: changes, received: incoming.revisionBody)
        }
        return .create(id: id, body: incoming.body, attachments: changes, received: incoming.revisionBody)
    }

    /// New edits of `_bulk_docs`, always in one transaction: all at once when every document
    /// goes through; otherwise each in a savepoint of its own (`DocumentStore.writeEach`), so
    /// each gets its own result and one conflict does not cost a transaction per document.
    static func saveBatch(_ documents: [CouchDocument], store: some DocumentStoreWriting) throws -> [BulkDocsReply.Result] {
        if let operations = try? documents.map({ try writeOperation($0, id: $0.id!, store: store) }),
           Set(documents.map { $0.id! }).count == documents.count,
           let saved = try? store.write(operations), saved.count == documents.count {
            return saved.map { .saved(id: $0.id, rev: $0.rev) }
        }
        // Some are refused: each gets its own answer, and the rest still commit together.
        func refusal(_ id: String, _ error: any Error) throws -> BulkDocsReply.Result {
            let couch = CouchError.from(error)
            if couch.status >= 500 { throw couch }
            return .refused(DocumentFailure(id: id, rev: nil, error: couch.error, reason: couch.reason))
        }
        var results = [BulkDocsReply.Result?](repeating: nil, count: documents.count)
        var operations: [DocumentStore.WriteOperation] = []
        var positions: [Int] = []
        for (position, document) in documents.enumerated() {
            do {
                operations.append(try writeOperation(document, id: document.id!, store: store))
                positions.append(position)
            } catch {
                results[position] = try refusal(document.id!, error)
            }
        }
        for (position, outcome) in zip(positions, try store.writeEach(operations)) {
            let id = documents[position].id!
            switch outcome {
            case .success(let saved): results[position] = .saved(id: id, rev: saved.rev)
            case .failure(let error): results[position] = try refusal(id, error)
            }
        }
        return results.map { $0! }
    }

    /// The replicated revision (`new_edits=false`) for `incoming`, stubs without a length
    /// taking the length of the bytes the store holds under their digest; 400 when it lacks
    /// `_rev`.
    static func replicatedRevision(_ incoming: CouchDocument, id: String, store: some DocumentStoreReading) throws -> ReplicatedRevision {
        var document = incoming
        try document.completeStubLengths { try store.attachmentData(digest: $0)?.count }
        return try document.replicatedRevision(id: id)
    }
}
