import CouchProtocol
import DocumentStore
import Foundation
import HTTPTypes
import Hummingbird
import DocumentFormat

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

    /// One document asked for in `_bulk_get`.
    private struct BulkGetItem: Sendable {
        var id: String
        var rev: RevisionID?
        var revText: String?
        var attsSince: [RevisionID]
    }

    /// `POST /{db}/_bulk_get`: many revisions in one request (JSON, or multipart/mixed when
    /// the client asks only for that).
    func bulkGet(_ database: Database, _ request: CouchRequest) async throws -> Response {
        try Self.allow(request, [.post])
        let body = try await request.jsonObjectBody()
        guard let docs = body["docs"]?.arrayValue else { throw CouchError.badRequest("Missing JSON list of 'docs'.") }
        try checkEntryCount(docs.count, of: "docs")
        var items = [BulkGetItem]()
        for element in docs {
            guard let object = element.objectValue, let id = object["id"]?.stringValue else {
                throw CouchError.badRequest("Every _bulk_get entry needs an id")
            }
            let revText = object["rev"]?.stringValue
            let attsSince = try object["atts_since"].map(QueryParameters.revisions(from:)) ?? []
            items.append(BulkGetItem(id: id, rev: revText.flatMap(RevisionID.init), revText: revText, attsSince: attsSince))
        }
        var renderer = DocumentRenderer()
        renderer.revs = try request.query.bool("revs") || body["revs"]?.boolValue == true
        renderer.attachments = try request.query.bool("attachments") || body["attachments"]?.boolValue == true
        let latest = try request.query.bool("latest") || body["latest"]?.boolValue == true
        let rendererCopy = renderer
        let requested = items
        let results = try await database.store.withReader { _ throws -> [JSONValue] in
            let store = database.store
            // The common case when replicating: each revision asked for is its document's
            // winner, hence a leaf and its own latest. One read gets them all with their history.
            let asked = requested.indices.filter { requested[$0].rev != nil && CouchDocument.isDocumentID(requested[$0].id) }
            var direct = [(revision: DocumentRevision, history: [RevisionID])?](repeating: nil, count: requested.count)
            let read = try store.revisionsWithHistory(asked.map { (id: requested[$0].id, rev: requested[$0].rev!) })
            for (index, found) in zip(asked, read) { direct[index] = found }
            return try zip(requested, direct).map { item, found in
                var renderer = rendererCopy
                renderer.attsSince = item.attsSince
                var docs = [JSONValue]()
                let missing: JSONValue = [
                    "error": [
                        "id": .string(item.id), "rev": .string(item.revText ?? "undefined"),
                        "error": "not_found", "reason": "missing",
                    ],
                ]
                if !CouchDocument.isDocumentID(item.id) {
                    docs.append(missing)
                } else if let rev = item.rev {
                    if let (exact, history) = found, exact.sequence != 0 || !latest {
                        docs.append(["ok": .object(try renderer.render(exact, store: store, history: history).json)])
                        return ["id": .string(item.id), "docs": .array(docs)]
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
                    for match in matches { docs.append(["ok": .object(try renderer.render(match, store: store).json)]) }
                } else if item.revText != nil {
                    docs.append(["error": [
                        "id": .string(item.id), "rev": .string(item.revText!),
                        "error": "bad_request", "reason": "Invalid rev format",
                    ]])
                } else if let winner = try store.leafRevisions(id: item.id).first {
                    docs.append(["ok": .object(try renderer.render(winner, store: store).json)])
                } else {
                    docs.append(missing)
                }
                return ["id": .string(item.id), "docs": .array(docs)]
            }
        }
        if request.prefersMultipartMixed {
            return try await bulkGetMultipart(results, renderer: renderer, database: database)
        }
        return CouchReply.json(200, ["results": .array(results)])
    }

    /// The multipart/mixed form of `_bulk_get`: one part per returned revision or error.
    private func bulkGetMultipart(_ results: [JSONValue], renderer: DocumentRenderer, database: Database) async throws -> Response {
        var writer = MultipartWriter(output: Data(), framing: .padded)
        for result in results {
            for doc in result.objectValue?["docs"]?.arrayValue ?? [] {
                if let ok = doc.objectValue?["ok"] {
                    try writer.appendPart(headers: [("Content-Type", "application/json")], body: JSONWriter.couchDB.data(ok))
                } else {
                    try writer.appendPart(headers: [("Content-Type", "application/json; error=\"true\"")],
                                          body: JSONWriter.couchDB.data(doc.objectValue?["error"] ?? .null))
                }
            }
        }
        let contentType = writer.contentType("mixed")
        return CouchReply.bytes(200, try writer.finish(), contentType: contentType)
    }

    /// `POST /{db}/_bulk_docs`: many writes; with `new_edits:false` revisions are inserted as
    /// given (replication), otherwise each document is an ordinary edit with its own result.
    func bulkDocs(_ database: Database, _ request: CouchRequest) async throws -> Response {
        try Self.allow(request, [.post])
        let store = database.store
        let results: [BulkDocsReply.Result]
        let body = try await request.jsonObjectBody()
        let maxEntries = state.configuration.maxEntriesPerRequest
        switch try await store.withReader({ _ in try Self.bulkDocsBatch(body, store: store, maxEntries: maxEntries) }) {
        case .newEdits(let documents):
            results = try await store.withWriter { _ in try Self.saveBatch(documents, store: store) }
        case .replicated(let revisions):
            results = try await store.withWriter { _ in try Self.insertReplicated(revisions, store: store) }
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
    static func bulkDocsBatch(_ body: JSONObject, store: DocumentStore, maxEntries: Int) throws -> BulkDocsBatch {
        guard let docs = body["docs"]?.arrayValue else { throw CouchError.badRequest("POST body must include `docs` parameter.") }
        try checkEntryCount(docs.count, of: "docs", limit: maxEntries)
        var incoming = [CouchDocument]()
        for element in docs {
            guard let object = element.objectValue else { throw CouchError.badRequest("Document must be a JSON object") }
            let document = try CouchDocument(object)
            if let id = document.id { try CouchDocument.validate(id: id) }
            incoming.append(document)
        }
        if body["new_edits"]?.boolValue ?? true {
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
    static func insertReplicated(_ revisions: [ReplicatedRevision], store: DocumentStore) throws -> [BulkDocsReply.Result] {
        try store.insertRevisionsReportingRefusals(revisions).map { refusal in
            let couch = CouchError(refusal.error)
            return .refused(id: refusal.id, rev: refusal.rev, error: couch.error, reason: couch.reason)
        }
    }
}
