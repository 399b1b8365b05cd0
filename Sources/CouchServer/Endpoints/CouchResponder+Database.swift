import CouchProtocol
import DocumentStore
import Foundation
import HTTPTypes
import Hummingbird
import DocumentFormat
import HTTPSupport

/// Database-level endpoints: info, create, delete, `POST /{db}` and `_all_docs`.
extension CouchResponder {
    func databaseRequest(_ name: String, _ request: CouchRequest) async throws -> Response {
        switch request.method {
        case .get, .head:
            let database = try await state.registry.database(name)
            return try await database.lifecycle.withLease { CouchReply.json(200, try await databaseInfo(database)) }
        case .put:
            // CouchDB's shard count: only reported back here (one file holds the database).
            var shards: Int?
            if let text = request.query["q"] {
                guard let q = WireNumber.count(text), q > 0 else {
                    throw CouchError.badRequest("The `q` value should be a positive integer.")
                }
                shards = q
            }
            let database = try await state.registry.create(name)
            if let shards {
                try await database.lifecycle.withLease {
                    try await database.store.withWriter { store in try store.setSetting(Self.shardSetting, to: String(shards)) }
                }
            }
            return CouchReply.json(201, CouchReply.ok, headers: [(.location, "\(request.baseURL)/\(PercentEncoding.pathSegment(name))")])
        case .delete:
            try await state.registry.delete(name)
            return CouchReply.json(200, CouchReply.ok)
        case .post:
            let database = try await state.registry.database(name)
            return try await database.lifecycle.withLease { try await postDocument(database, request) }
        default:
            throw CouchError.methodNotAllowed
        }
    }

    /// The store setting that keeps the `q` a database was created with.
    static let shardSetting = "cluster.q"

    /// The `GET /{db}` object.
    func databaseInfo(_ database: Database) async throws -> JSONValue {
        let (sequence, count, deleted, shards) = try await database.store.withReader { store in
            (try store.lastSequence, try store.documentCount(), try database.deletedDocumentCount(in: store),
             try store.setting(Self.shardSetting).flatMap { WireNumber.count($0) })
        }
        let fileSize = (try? FileManager.default.attributesOfItem(atPath: database.store.path)[.size] as? Int) ?? 0
        return DatabaseInfoReply(
            name: database.name.name, updateSequence: .string(String(sequence)), purgeSequence: "0",
            documentCount: count, deletedDocumentCount: deleted,
            sizes: .init(file: fileSize, external: 0, active: fileSize), props: [:], diskFormatVersion: 8,
            compactRunning: false, cluster: .init(q: shards ?? 1, n: 1, w: 1, r: 1),
            instanceStartTime: database.instanceStartTime
        ).json
    }

    /// `POST /{db}`: a new document, its ID from `_id` or a fresh UUID.
    private func postDocument(_ database: Database, _ request: CouchRequest) async throws -> Response {
        var incoming = try await CouchDocument(request.jsonObjectBody())
        incoming.revisionBody = try RevisionBody(json: request.body)
        let id = incoming.id ?? UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        if id.hasPrefix("_design/"), !request.isDatabaseAdmin {
            throw CouchError(status: 403, error: "forbidden", reason: "You are not a db or server admin.")
        }
        incoming.id = id
        try CouchDocument.validate(id: id)
        let saved = try await save(incoming, id: id, in: database)
        if request.isBatchWrite { return CouchReply.json(202, ["ok": true, "id": .string(id)]) }
        return CouchReply.json(
            201, DocumentWriteReply(id: id, rev: saved.rev.description).json,
            headers: [(.eTag, "\"\(saved.rev)\""), (.location, "\(request.baseURL)/\(PercentEncoding.pathSegment(database.name.name))/\(CouchDocument.encodedPath(of: id))")])
    }

    /// `GET|POST /{db}/_all_docs`.
    func allDocs(_ database: Database, _ request: CouchRequest) async throws -> Response {
        try Self.allow(request, [.get, .post])
        let query = request.query
        var keys: [String]? = nil
        if request.method == .post, !request.body.isEmpty {
            let body = try await request.jsonObjectBody()
            if let value = body["keys"] {
                guard let array = value.arrayValue else { throw CouchError.badRequest("`keys` must be an array") }
                try checkEntryCount(array.count, of: "keys")
                keys = array.compactMap(\.stringValue)
            }
        }
        if keys == nil, let value = try query.json("keys") {
            try checkEntryCount(value.arrayValue?.count ?? 0, of: "keys")
            keys = value.arrayValue?.compactMap(\.stringValue)
        }
        let includeDocs = try query.bool("include_docs")
        var renderer = DocumentRenderer()
        renderer.conflicts = try query.bool("conflicts")
        renderer.attachments = try query.bool("attachments")
        let descending = try query.bool("descending")
        let limit = try query.int("limit")
        let skip = try query.int("skip") ?? 0
        // `key` is the range from it to itself, as CouchDB reads it: a missing key lists no row.
        let key = keys == nil ? try query.json("key")?.stringValue : nil
        let startKey = try key ?? (query.json("startkey") ?? query.json("start_key"))?.stringValue
        let endKey = try key ?? (query.json("endkey") ?? query.json("end_key"))?.stringValue
        let inclusiveEnd = try query.bool("inclusive_end", default: true)
        let rendererCopy = renderer
        let keysCopy = keys
        let reply = try await database.store.withReader { store throws -> AllDocsReply in
            let total = try store.documentCount()
            var rows = [AllDocsReply.Row]()
            var offset: Int? = nil
            if let keysCopy {
                var selected = keysCopy
                if descending { selected.reverse() }
                selected = Array(selected.dropFirst(skip))
                if let limit { selected = Array(selected.prefix(limit)) }
                for key in selected {
                    rows.append(try Self.allDocsRow(key: key, store: store, includeDocs: includeDocs, renderer: rendererCopy))
                }
            } else {
                let options = AllDocsOptions(startKey: startKey, endKey: endKey, inclusiveEnd: inclusiveEnd,
                                             limit: limit, skip: skip, descending: descending)
                // The rows before the first one listed: those before the start key, then `skip`.
                let before = try startKey.map { try store.documentCount(before: $0, descending: descending) } ?? 0
                offset = min(total, before + max(0, skip))
                for revision in try store.allDocuments(options) {
                    let doc: JSONValue? = includeDocs ? .object(try rendererCopy.render(revision, store: store).json) : nil
                    rows.append(.document(id: revision.id, rev: revision.rev, deleted: false, doc: doc))
                }
            }
            return AllDocsReply(totalRows: total, offset: offset, rows: rows)
        }
        return CouchReply.json(200, reply.json)
    }

    /// One `_all_docs` row for an explicitly requested key: live, deleted or missing.
    private static func allDocsRow(key: String, store: some DocumentStoreReading, includeDocs: Bool, renderer: DocumentRenderer) throws -> AllDocsReply.Row {
        if CouchDocument.isDocumentID(key), let live = try store.get(id: key) {
            let doc: JSONValue? = includeDocs ? .object(try renderer.render(live, store: store).json) : nil
            return .document(id: key, rev: live.rev, deleted: false, doc: doc)
        }
        if CouchDocument.isDocumentID(key), let winner = try store.leafRevisions(id: key).first {
            return .document(id: key, rev: winner.rev, deleted: true, doc: includeDocs ? .null : nil)
        }
        return .error(key: key, error: "not_found")
    }
}
