import CouchProtocol
import DocumentStore
import Foundation
import HTTPTypes
import Hummingbird
import DocumentFormat
import HTTPSupport

/// `GET|PUT|DELETE /{db}/{docid}`, including `open_revs` (JSON or multipart/mixed) and
/// `multipart/related` uploads with attachments, as CouchDB's replicator uses them.
extension CouchResponder {
    func document(_ id: String, _ database: Database, _ request: CouchRequest) async throws -> Response {
        switch request.method {
        case .get, .head: return try await getDocument(id, database, request)
        case .put: return try await putDocument(id, database, request)
        case .delete: return try await deleteDocument(id, database, request)
        case let method where method.rawValue == "COPY": return try await copyDocument(id, database, request)
        default: throw CouchError.methodNotAllowed
        }
    }

    /// The read options of a document GET.
    private func renderer(for request: CouchRequest) throws -> DocumentRenderer {
        let query = request.query
        var renderer = DocumentRenderer()
        let meta = try query.bool("meta")
        renderer.revs = try query.bool("revs")
        renderer.revsInfo = try query.bool("revs_info") || meta
        renderer.conflicts = try query.bool("conflicts") || meta
        renderer.deletedConflicts = try query.bool("deleted_conflicts") || meta
        renderer.attachments = try query.bool("attachments")
        renderer.attsSince = try query.revisionList("atts_since") ?? []
        return renderer
    }

    private func getDocument(_ id: String, _ database: Database, _ request: CouchRequest) async throws -> Response {
        if request.query["open_revs"] != nil { return try await openRevs(id, database, request) }
        var renderer = try renderer(for: request)
        // With its attachments and `Accept: multipart/related`, CouchDB sends the document as
        // a multipart/related body: the JSON, then each attachment's bytes in a part.
        let related = renderer.attachments && request.accepts("multipart/related")
        renderer.attachmentsFollow = related
        let rev = try request.query.revision()
        try CouchDocument.validate(id: id)
        let rendererCopy = renderer
        let document = try await database.store.withReader { store throws -> DocumentRenderer.Rendered in
            let revision: DocumentRevision
            if let rev {
                guard let found = try store.get(id: id, rev: rev) else { throw CouchError.missing }
                revision = found
            } else {
                guard let winner = try store.get(id: id) else {
                    throw try store.leafRevisions(id: id).isEmpty ? CouchError.missing : CouchError.deleted
                }
                revision = winner
            }
            return try rendererCopy.render(revision, store: store)
        }
        let etag = document.json["_rev"]?.stringValue.map { "\"\($0)\"" } ?? ""
        if related, !document.following.isEmpty {
            let body = try await Self.relatedBody(document, store: database.store)
            return CouchReply.bytes(200, body.body, contentType: body.contentType, headers: [(.eTag, etag)])
        }
        return CouchReply.json(200, .object(document.json), headers: [(.eTag, etag)])
    }

    /// One entry of an `open_revs` answer.
    private enum OpenRevResult: Sendable {
        case found(DocumentRenderer.Rendered)
        case missing(RevisionID)
    }

    private func openRevs(_ id: String, _ database: Database, _ request: CouchRequest) async throws -> Response {
        try CouchDocument.validate(id: id)
        var renderer = try renderer(for: request)
        let multipart = request.acceptsMultipartMixed
        if multipart, request.query["attachments"] == nil { renderer.attachments = true }
        renderer.attachmentsFollow = multipart
        let latest = try request.query.bool("latest")
        let requested: [RevisionID]?
        if request.query["open_revs"] == "all" {
            requested = nil
        } else {
            guard let value = try request.query.json("open_revs") else { throw CouchError.badRequest("open_revs is missing") }
            if value == .string("all") {
                requested = nil
            } else {
                requested = try QueryParameters.revisions(from: value)
            }
        }
        let rendererCopy = renderer
        let results = try await database.store.withReader { store throws -> [OpenRevResult] in
            let leaves = try store.leafRevisions(id: id)
            guard let requested else {
                if leaves.isEmpty { throw CouchError.missing }
                // All leaves, in the revision tree's order as CouchDB lists them.
                let position = Dictionary(uniqueKeysWithValues: try store.leavesInTreeOrder(id: id).enumerated().map { ($1, $0) })
                let sorted = leaves.sorted { (position[$0.rev] ?? .max) < (position[$1.rev] ?? .max) }
                return try sorted.map { .found(try rendererCopy.render($0, store: store)) }
            }
            var results = [OpenRevResult]()
            var seen = Set<RevisionID>()
            for rev in requested {
                var matches = [DocumentRevision]()
                if latest {
                    for leaf in leaves {
                        if try leaf.rev == rev || store.history(id: id, rev: leaf.rev).contains(rev) {
                            matches.append(leaf)
                        }
                    }
                }
                if matches.isEmpty, let exact = try store.get(id: id, rev: rev) { matches = [exact] }
                if matches.isEmpty { results.append(.missing(rev)) }
                for match in matches where seen.insert(match.rev).inserted {
                    results.append(.found(try rendererCopy.render(match, store: store)))
                }
            }
            return results
        }
        guard multipart else {
            return CouchReply.json(200, OpenRevsReply(results.map { result in
                switch result {
                case .found(let rendered): .ok(rendered.json)
                case .missing(let rev): .missing(rev.description)
                }
            }).json)
        }
        var writer = MultipartWriter(output: Data(), boundary: RandomIdentifier.compactHex())
        for result in results {
            switch result {
            case .missing(let rev):
                try RevisionResult.missing(rev.description).appendPart(to: &writer)
            case .found(let rendered) where rendered.following.isEmpty:
                try RevisionResult.ok(rendered.json).appendPart(to: &writer)
            case .found(let rendered):
                let inner = try await Self.relatedBody(rendered, store: database.store)
                try OpenRevsMultipartReply.appendRelated(contentType: inner.contentType, body: inner.body, to: &writer)
            }
        }
        let contentType = writer.contentType("mixed")
        return CouchReply.bytes(200, try writer.finish(), contentType: contentType)
    }

    /// A `multipart/related` body: the document JSON, then one part per following attachment.
    static func relatedBody(_ rendered: DocumentRenderer.Rendered, store: DocumentStore) async throws -> (contentType: String, body: Data) {
        var writer = MultipartWriter(output: Data(), boundary: RandomIdentifier.compactHex())
        try writer.appendPart(headers: [("Content-Type", "application/json")], body: JSONWriter.couchDB.data(.object(rendered.json)))
        for (name, info) in rendered.following {
            let data = try await store.withReader { store in try store.attachmentData(digest: info.digest) }
            guard let data else {
                throw CouchError(status: 500, error: "internal_server_error", reason: "Attachment \(name) has no stored data")
            }
            try writer.appendPart(headers: MultipartWriter<Data>.attachmentHeaders(name: name, contentType: info.contentType, length: data.count),
                                  body: data)
        }
        let contentType = writer.contentType("related")
        return (contentType, try writer.finish())
    }

    /// The document and its attachment parts of a PUT body, JSON or `multipart/related`.
    private func incomingDocument(_ request: CouchRequest) async throws -> CouchDocument {
        if request.mediaType == "multipart/related" {
            guard let boundary = HeaderParameters.value(of: "boundary", in: request.headers[.contentType] ?? "") else {
                throw CouchError.badRequest("multipart/related body without a boundary")
            }
            let parts: [MultipartPart]
            do {
                parts = try MultipartBody(data: request.body, boundary: boundary).parts
            } catch {
                throw CouchError.badRequest(error.description)
            }
            guard let first = parts.first else { throw CouchError.badRequest("multipart/related body has no parts") }
            var incoming = try await CouchDocument(request.jsonObject(from: first.body))
            incoming.revisionBody = try RevisionBody(json: first.body)
            try incoming.attachFollowingParts(parts.dropFirst())
            return incoming
        }
        var incoming = try await CouchDocument(request.jsonObjectBody())
        incoming.revisionBody = try RevisionBody(json: request.body)
        return incoming
    }

    private func putDocument(_ id: String, _ database: Database, _ request: CouchRequest) async throws -> Response {
        var incoming = try await incomingDocument(request)
        try CouchDocument.validate(id: id)
        if let queryRev = try request.revisionOrIfMatch() {
            if let bodyRev = incoming.rev, bodyRev != queryRev {
                throw CouchError.badRequest("Document rev from request body and query string have different values")
            }
            incoming.rev = queryRev
        }
        let newEdits = try request.query.bool("new_edits", default: true)
        let document = incoming
        let rev: RevisionID
        if newEdits {
            rev = try await save(document, id: id, in: database).rev
        } else {
            rev = try await database.store.withWriter { store throws -> RevisionID in
                let revision = try Self.replicatedRevision(document, id: id, store: store)
                try store.insertRevisions([revision])
                return revision.rev
            }
            database.didWrite()
        }
        // CouchDB answers `batch=ok` before writing; this server has written already.
        if newEdits, request.isBatchWrite { return CouchReply.json(202, ["ok": true, "id": .string(id)]) }
        return CouchReply.json(
            201, DocumentWriteReply(id: id, rev: rev.description).json,
            headers: [(.eTag, "\"\(rev)\""),
                      (.location, "\(request.baseURL)/\(PercentEncoding.pathSegment(database.name.name))/\(CouchDocument.encodedPath(of: id))")])
    }

    private func deleteDocument(_ id: String, _ database: Database, _ request: CouchRequest) async throws -> Response {
        try CouchDocument.validate(id: id)
        let rev = try request.revisionOrIfMatch()
        guard let rev else {
            let exists = try await database.store.withReader { store in try store.get(id: id) != nil }
            throw exists ? CouchError.conflict : CouchError.missing
        }
        let deleted = try await database.store.withWriter { store in try store.delete(id: id, parent: rev) }
        database.didWrite()
        return CouchReply.json(200, DocumentWriteReply(id: id, rev: deleted.rev.description).json,
                               headers: [(.eTag, "\"\(deleted.rev)\"")])
    }
}
