import CouchProtocol
import DocumentFormat
import DocumentStore
import Foundation
import HTTPTypes
import Hummingbird
import HTTPSupport

/// `COPY /{db}/{docid}` with a `Destination` header.
extension CouchResponder {
    /// The `Destination` header.
    private static let destinationHeader = HTTPField.Name("Destination")!

    /// Copies the document's winner (or its `?rev=` revision), attachments included, to the
    /// ID the `Destination` header names (percent-encoded, with `?rev=` to replace an
    /// existing document's current revision), as CouchDB does: 201 with the new revision,
    /// 409 when the destination exists and no current `rev` was given, 404 when the source
    /// is missing. The destination's own attachments are replaced by the source's.
    func copyDocument(_ id: String, _ database: Database, _ request: CouchRequest) async throws -> Response {
        try CouchDocument.validate(id: id)
        guard let header = request.headers[Self.destinationHeader], !header.isEmpty else {
            throw CouchError.badRequest("Destination header is mandatory for COPY.")
        }
        let parts = header.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let destination = String(parts[0]).removingPercentEncoding, !destination.isEmpty else {
            throw CouchError.badRequest("Malformed percent-encoding in the Destination header")
        }
        try CouchDocument.validate(id: destination)
        // Writing a design document is for the database's admins, whichever route writes it.
        if destination.hasPrefix("_design/"), !request.isDatabaseAdmin {
            throw CouchError(status: 403, error: "forbidden", reason: "You are not a db or server admin.")
        }
        var destinationRev: RevisionID?
        if parts.count > 1, let text = QueryParameters(rawQuery: String(parts[1]))["rev"] {
            guard let rev = RevisionID(text) else { throw CouchError.invalidRev }
            destinationRev = rev
        }
        let sourceRev = try request.query.revision()
        let targetRev = destinationRev
        let saved = try await database.store.withWriter { store throws -> DocumentRevision in
            do {
                guard let source = try sourceRev.map({ try store.get(id: id, rev: $0) }) ?? store.get(id: id),
                      !source.deleted else { throw CouchError.missing }
                var changes: [AttachmentChange] = []
                for name in source.attachments.keys.sorted() {
                    guard let (info, data) = try store.attachment(id: id, rev: source.rev, name: name) else { throw CouchError.missing }
                    changes.append(.put(name: name, contentType: info.contentType, data: data))
                }
                guard let targetRev else { return try store.create(id: destination, body: source.body, attachments: changes) }
                guard let target = try store.get(id: destination, rev: targetRev) else { throw CouchError.conflict }
                for name in target.attachments.keys where source.attachments[name] == nil { changes.append(.remove(name: name)) }
                return try store.update(id: destination, parent: targetRev, body: source.body, attachments: changes)
            }
        }
        database.didWrite()
        return CouchReply.json(
            201, DocumentWriteReply(id: destination, rev: saved.rev.description).json,
            headers: [(.eTag, "\"\(saved.rev)\""),
                      (.location, "\(request.baseURL)/\(PercentEncoding.pathSegment(database.name.name))/\(CouchDocument.encodedPath(of: destination))")])
    }
}
