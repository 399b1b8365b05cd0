import CouchProtocol
import DocumentStore
import Foundation
import HTTPTypes
import Hummingbird
import DocumentFormat
import HTTPSupport

/// The replication endpoints: `_revs_diff`, `_bulk_get`, `_bulk_docs`.
extension CouchResponder {
    /// `POST /{db}/_revs_diff`: which of the offered revisions are missing here.
    func revsDiff(_ database: Database, _ request: CouchRequest) async throws -> Response {
        try Self.allow(request, [.post])
        let offered = try await request.jsonObjectBody()
        try checkEntryCount(offered.count, of: "document IDs")
        // A revision that does not parse can never be stored here, so it is reported
        // missing rather than failing the whole request.
        let asked = try RevsDiffMessage.Request(json: offered)
        let revisions = asked.revisions
        let diff = try await database.store.withReader { store in try store.revsDiff(revisions) }
        return CouchReply.json(200, RevsDiffMessage.Response(entries: diff, unparseable: asked.unparseable).json)
    }

    /// `POST /{db}/_bulk_get`: many revisions in one request (JSON, or multipart/mixed when
    /// the client asks only for that).
    func bulkGet(_ database: Database, _ request: CouchRequest) async throws -> Response {
        try Self.allow(request, [.post])
        let body = try await request.jsonObjectBody()
        let asked = try BulkGetMessage.Request(json: body)
        try checkEntryCount(asked.docs.count, of: "docs")
        var renderer = DocumentRenderer()
        renderer.revs = try request.query.bool("revs") || asked.revs == true
        renderer.attachments = try request.query.bool("attachments") || asked.attachments == true
        let latest = try request.query.bool("latest") || asked.latest == true
        let rendererCopy = renderer
        let requested = asked.docs
        let results = try await database.store.withReader { store throws -> [BulkGetMessage.Response.Result] in
            let revs = requested.map { $0.rev.flatMap(RevisionID.init) }
            // The common case when replicating: each revision asked for is its document's
            // winner, hence a leaf and its own latest. One read gets them all with their history.
            let direct = requested.indices.filter { revs[$0] != nil && CouchDocument.isDocumentID(requested[$0].id) }
            var found = [(revision: DocumentRevision, history: [RevisionID])?](repeating: nil, count: requested.count)
            let read = try store.revisionsWithHistory(direct.map { (id: requested[$0].id, rev: revs[$0]!) })
            for (index, revision) in zip(direct, read) { found[index] = revision }
            return try requested.indices.map { index in
                let item = requested[index]
                var renderer = rendererCopy
                renderer.attsSince = item.attachmentsSince ?? []
                var docs = [RevisionResult]()
                let missing = RevisionResult.error(id: item.id, rev: item.rev, error: "not_found", reason: "missing")
                if !CouchDocument.isDocumentID(item.id) {
                    docs.append(missing)
                } else if let rev = revs[index] {
                    if let (exact, history) = found[index], exact.sequence != 0 || !latest {
                        docs.append(.ok(try renderer.render(exact, store: store, history: history).json))
                        return .init(id: item.id, docs: docs)
                    }
                    var matches = [DocumentRevision]()
                    if latest {
                        for leaf in try store.leafRevisions(id: item.id) {
                            if try leaf.rev == rev || store.history(id: item.id, rev: leaf.rev).contains(rev) {
                                matches.append(leaf)
                            }
                        }
                    }
                    if matches.isEmpty, let exact = try store.get(id: item.id, rev: rev) { matches = [exact] }
                    if matches.isEmpty { docs.append(missing) }
                    for match in matches { docs.append(.ok(try renderer.render(match, store: store).json)) }
                } else if let text = item.rev {
                    docs.append(.error(id: item.id, rev: text, error: "bad_request", reason: "Invalid rev format"))
                } else if let winner = try store.leafRevisions(id: item.id).first {
                    docs.append(.ok(try renderer.render(winner, store: store).json))
                } else {
                    docs.append(missing)
                }
                return .init(id: item.id, docs: docs)
            }
        }
        let reply = BulkGetMessage.Response(results: results)
        if request.namesMultipartMixed {
            var writer = MultipartWriter(output: Data(), boundary: RandomIdentifier.compactHex(), framing: .padded)
            try reply.appendParts(to: &writer)
            let contentType = writer.contentType("mixed")
            return CouchReply.bytes(200, try writer.finish(), contentType: contentType)
        }
        return CouchReply.json(200, reply.json)
    }

    /// `POST /{db}/_bulk_docs`: many writes; with `new_edits:false` revisions are inserted as
    /// given (replication), otherwise each document is an ordinary edit with its own result.
    func bulkDocs(_ database: Database, _ request: CouchRequest) async throws -> Response {
        try Self.allow(request, [.post])
        let store = database.store
        let results: [BulkDocsReply.Result]
        let body = try await request.jsonObjectBody()
        if !request.isDatabaseAdmin, body["docs"]?.arrayValue?.contains(where: {
            $0.objectValue?["_id"]?.stringValue?.hasPrefix("_design/") == true
        }) == true {
            throw CouchError(status: 403, error: "forbidden", reason: "You are not a db or server admin.")
        }
        let maxEntries = state.configuration.maxEntriesPerRequest
        switch try await store.withReader({ store in try Self.bulkDocsBatch(body, store: store, maxEntries: maxEntries) }) {
        case .newEdits(var documents):
            // Each new edit's ID is hashed from its text as received, as CouchDB hashes it.
            if let received = try RevisionBody.documents(inBulkDocs: request.body), received.count == documents.count {
                for position in documents.indices { documents[position].revisionBody = received[position] }
            }
            let documents = documents
            results = try await store.withWriter { store in try Self.saveBatch(documents, store: store) }
        case .replicated(let revisions):
            results = try await store.withWriter { store in try Self.insertReplicated(revisions, store: store) }
        }
        database.didWrite()
        return CouchReply.json(201, BulkDocsReply(results).json)
    }

    /// What a `_bulk_docs` body asks for, parsed and validated before anything is written.
    enum BulkDocsBatch: Sendable {
        /// `new_edits` true (the default): documents to save as new edits, each with an ID.
        case newEdits([CouchDocument])
        /// `new_edits: false`: revisions made elsewhere, with their ancestry.
        case replicated([ReplicatedRevision])
    }

    /// Checks a parsed `_bulk_docs` body: a malformed request, or one of more than
    /// `maxEntries` documents, writes nothing. Design documents (`_design/<name>`) are stored
    /// and replicated like any other.
    static func bulkDocsBatch(_ body: JSONObject, store: some DocumentStoreReading, maxEntries: Int) throws -> BulkDocsBatch {
        let request = try BulkDocsRequest(json: body, maximumDocuments: maxEntries)
        let incoming = request.docs
        if request.newEdits {
            return .newEdits(incoming.map { document in
                var document = document
                if document.id == nil { document.id = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }
                return document
            })
        }
        var revisions = [ReplicatedRevision]()
        for document in incoming {
            guard let id = document.id else { throw CouchError.badRequest("new_edits=false needs _id on every document") }
            guard document.rev != nil || document.revisions != nil else {
                throw CouchError.badRequest("new_edits=false needs _rev on every document")
            }
            revisions.append(try replicatedRevision(document, id: id, store: store))
        }
        return .replicated(revisions)
    }

    /// Stores replicated revisions; the reply lists only those refused, as CouchDB does.
    static func insertReplicated(_ revisions: [ReplicatedRevision], store: some DocumentStoreWriting) throws -> [BulkDocsReply.Result] {
        try store.insertRevisionsReportingRefusals(revisions).map { refusal in
            let couch = CouchError(refusal.error)
            return .refused(DocumentFailure(id: refusal.id, rev: refusal.rev, error: couch.error, reason: couch.reason))
        }
    }
}
