import CouchProtocol
import Crypto
import DocumentFormat
import DocumentStore
import Foundation
import HTTPTypes
import Hummingbird

/// Mango indexes: `GET` and `POST /{db}/_index`, `DELETE /{db}/_index/{ddoc}/json/{name}`.
///
/// As in CouchDB, an index lives in a design document (`"language": "query"`, one view per
/// index), so it is listed by `_all_docs`, replicated, and removed with its view. The store
/// keeps a query index for each one created here, named `MangoIndex.storeName`.
extension CouchResponder {
    /// `GET /{db}/_index` (the list) or `POST /{db}/_index` (create).
    func index(_ database: Database, _ request: CouchRequest) async throws -> Response {
        switch request.method {
        case .get, .head: return try await listIndexes(database)
        case .post: return try await createIndex(database, request)
        default:
            throw CouchError(status: 405, error: "method_not_allowed", reason: "Only GET,POST allowed")
        }
    }

    /// `GET /{db}/_index`: CouchDB's special `_all_docs` index, then the indexes of the
    /// database's query design documents, by design document ID and name.
    private func listIndexes(_ database: Database) async throws -> Response {
        let designs = try await database.store.withReader { store in
            try store.allDocuments(AllDocsOptions(startKey: "_design/", endKey: "_design0", inclusiveEnd: false))
        }
        var indexes: [JSONValue] = [MangoIndex.allDocs]
        for design in designs {
            indexes += MangoIndex.indexes(in: design.body, ddoc: design.id).map(\.listing)
        }
        return CouchReply.json(200, ["total_rows": .int(Int64(indexes.count)), "indexes": .array(indexes)])
    }

    /// `POST /{db}/_index`: adds the index to its design document (creating it) and builds
    /// the store's index; `"exists"` when the design document already has it.
    private func createIndex(_ database: Database, _ request: CouchRequest) async throws -> Response {
        let body = try await request.jsonObjectBody()
        guard let definition = body["index"] else {
            throw CouchError(status: 400, error: "missing_required_key", reason: "Missing required key: index")
        }
        guard let fieldValues = definition.objectValue?["fields"]?.arrayValue else {
            throw CouchError(status: 400, error: "missing_required_key", reason: "Missing required key: fields")
        }
        if let type = body["type"], type.stringValue != "json" {
            throw CouchError.badRequest("Only \"json\" indexes are supported; text and nouveau indexes are not")
        }
        guard !fieldValues.isEmpty else { throw CouchError.badRequest("An index needs at least one field") }
        var fields: [SortField] = []
        for value in fieldValues {
            switch value {
            case .string(let field): fields.append(SortField(field: field))
            case .object(let object) where object.count == 1:
                guard let (field, direction) = object.first, let text = direction.stringValue, text == "asc" || text == "desc" else {
                    throw CouchError.badRequest("Invalid index field: \(JSONWriter.couchDB.string(value))")
                }
                fields.append(SortField(field: field, ascending: text == "asc"))
            default: throw CouchError.badRequest("Invalid index field: \(JSONWriter.couchDB.string(value))")
            }
        }
        guard Set(fields.map(\.ascending)).count == 1 else {
            throw CouchError(status: 400, error: "unsupported_mixed_sort",
                             reason: "Sorts currently only support a single direction for all fields.")
        }
        guard fields.allSatisfy({ (try? FieldPath($0.field)) != nil }) else {
            throw CouchError.badRequest("Invalid index field: an empty field name or path part")
        }
        let partial = definition.objectValue?["partial_filter_selector"]
        if let partial, partial.objectValue == nil { throw CouchError.badRequest("partial_filter_selector must be an object") }
        let digest = Insecure.SHA1.hash(data: JSONWriter.couchDB.data(.object(["fields": .array(fieldValues), "partial": partial ?? .object([:])])))
        let hash = Hex.lowercase(digest)
        guard body["name"].map({ $0.stringValue?.isEmpty == false }) ?? true,
              body["ddoc"].map({ $0.stringValue?.isEmpty == false }) ?? true else {
            throw CouchError.badRequest("name and ddoc must be non-empty strings")
        }
        let name = body["name"]?.stringValue ?? hash
        let ddocName = body["ddoc"]?.stringValue.map { $0.hasPrefix("_design/") ? String($0.dropFirst(8)) : $0 } ?? hash
        let index = MangoIndex(ddoc: "_design/" + ddocName, name: name, fields: fields, partialFilter: partial?.objectValue ?? [:])
        let indexFields = fields.map(\.field)
        // The design document is written first: an index whose build fails is still declared
        // (as CouchDB declares it before building), and declaring it again builds it.
        let created = try await database.store.withWriter { store throws -> Bool in
            do {
                let existing = try store.get(id: index.ddoc)
                var design = existing?.body ?? ["language": "query"]
                var views = design["views"]?.objectValue ?? [:]
                let view = index.view
                let isNew = views[name] != view
                if isNew {
                    views[name] = view
                    design["views"] = .object(views)
                    if design["language"] == nil { design["language"] = "query" }
                    if let existing {
                        try store.update(id: index.ddoc, parent: existing.rev, body: design)
                    } else {
                        try store.create(id: index.ddoc, body: design)
                    }
                }
                try store.ensureIndex(fields: indexFields, name: index.storeName)
                return isNew
            }
        }
        if created { database.didWrite() }
        return CouchReply.json(200, ["result": .string(created ? "created" : "exists"), "id": .string(index.ddoc), "name": .string(name)])
    }

    /// `DELETE /{db}/_index/{ddoc}/json/{name}` (`ddoc` with or without `_design/`): removes
    /// the view from its design document (deleting the document with its last view) and the
    /// store's index; 404 `missing` when there is no such index.
    func deleteIndex(_ path: [String], _ database: Database, _ request: CouchRequest) async throws -> Response {
        try Self.allowOnly(request, [.delete])
        var parts = path
        if parts.first == "_design" { parts.removeFirst() }
        guard parts.count == 3, parts[1] == "json" else { throw CouchError.missing }
        let ddoc = "_design/" + parts[0]
        let name = parts[2]
        try await database.store.withWriter { store in
            do {
                guard let design = try store.get(id: ddoc), var views = design.body["views"]?.objectValue,
                      views[name] != nil, design.body["language"]?.stringValue == "query" else { throw CouchError.missing }
                views[name] = nil
                if views.isEmpty {
                    try store.delete(id: ddoc, parent: design.rev)
                } else {
                    var body = design.body
                    body["views"] = .object(views)
                    try store.update(id: ddoc, parent: design.rev, body: body)
                }
                try store.dropIndex(name: MangoIndex.storeName(ddoc: ddoc, name: name))
            }
        }
        database.didWrite()
        return CouchReply.json(200, CouchReply.ok)
    }
}
