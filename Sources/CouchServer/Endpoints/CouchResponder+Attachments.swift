import CouchProtocol
import DocumentStore
import Foundation
import HTTPTypes
import Hummingbird
import DocumentFormat
import HTTPSupport

/// `GET|PUT|DELETE /{db}/{docid}/{attachment}`: attachment bytes on their own.
extension CouchResponder {
    func attachmentRequest(_ id: String, _ name: String, _ database: Database, _ request: CouchRequest) async throws -> Response {
        try CouchDocument.validate(id: id)
        let rev = try request.revisionOrIfMatch()
        switch request.method {
        case .get, .head:
            let found = try await database.store.withReader { store throws -> (AttachmentInfo, Data)? in
                if let found = try store.attachment(id: id, rev: rev, name: name) { return found }
                // As CouchDB tells them apart: a document there without the attachment, or no document.
                let document = try rev.map { try store.get(id: id, rev: $0) } ?? store.get(id: id)
                throw document == nil ? CouchError.missing : CouchError.missingAttachment
            }
            guard let (info, data) = found else { throw CouchError.missing }
            let digest = info.digest.hasPrefix("md5-") ? String(info.digest.dropFirst(4)) : info.digest
            return CouchReply.bytes(200, data, contentType: info.contentType,
                                    headers: [(.eTag, "\"\(digest)\""), (.cacheControl, "must-revalidate")])
        case .put:
            let contentType = request.headers[.contentType] ?? "application/octet-stream"
            try AttachmentValidation.checkName(name)
            try AttachmentValidation.checkContentType(contentType, of: name)
            let body = request.body
            let saved = try await database.store.withWriter { store throws -> DocumentRevision in
                let change = AttachmentChange.put(name: name, contentType: contentType, data: body)
                if let rev {
                    guard let parent = try store.get(id: id, rev: rev) else { throw CouchError.conflict }
                    // CouchDB lists the new attachment first, then the parent's in their order.
                    let order = [name] + (try store.attachmentOrder(id: id, rev: rev)).filter { $0 != name }
                    let received = try RevisionBody(canonical: parent.body, attachmentOrder: order)
                    return try store.update(id: id, parent: rev, body: parent.body, attachments: [change], received: received)
                }
                if try store.get(id: id) != nil { throw CouchError.conflict }
                return try store.create(id: id, body: [:], attachments: [change])
            }
            database.didWrite()
            return CouchReply.json(
                201, DocumentWriteReply(id: id, rev: saved.rev.description).json,
                headers: [(.eTag, "\"\(saved.rev)\""),
                          (.location, "\(request.baseURL)/\(PercentEncoding.pathSegment(database.name.name))/\(CouchDocument.encodedPath(of: id))/\(PercentEncoding.pathSegment(name))")])
        case .delete:
            guard let rev else { throw CouchError.conflict }
            let saved = try await database.store.withWriter { store throws -> DocumentRevision in
                guard let parent = try store.get(id: id, rev: rev) else { throw CouchError.conflict }
                guard parent.attachments[name] != nil else { throw CouchError.missing }
                // The attachments left keep the parent's order, as in CouchDB.
                let received = try RevisionBody(canonical: parent.body, attachmentOrder: try store.attachmentOrder(id: id, rev: rev))
                return try store.update(id: id, parent: rev, body: parent.body, attachments: [.remove(name: name)],
                                        received: received)
            }
            database.didWrite()
            return CouchReply.json(200, DocumentWriteReply(id: id, rev: saved.rev.description).json)
        default:
            throw CouchError.methodNotAllowed
        }
    }
}
