import CouchProtocol
import Crypto
import DocumentStore
import Foundation
import HTTPTypes
import Hummingbird
import DocumentFormat

/// Mango queries: `POST /{db}/_find` and `POST /{db}/_index`, served by the store's queries.
extension CouchResponder {
    /// `POST /{db}/_find`.
    func find(_ database: Database, _ request: CouchRequest) async throws -> Response {
        try Self.allow(request, [.post])
        let body = try await request.jsonObjectBody()
        guard let selector = body["selector"], selector.objectValue != nil else {
            throw CouchError(status: 400, error: "missing_required_key", reason: "Missing required key: selector")
        }
        var sort = [SortField]()
        if let value = body["sort"] {
            guard let array = value.arrayValue else { throw CouchError.badRequest("sort must be an array") }
            for element in array {
                switch element {
                case .string(let field):
                    sort.append(SortField(field: field, ascending: true))
                case .object(let object) where object.count == 1:
                    let (field, direction) = object.first!
                    guard let text = direction.stringValue, text == "asc" || text == "desc" else {
                        throw CouchError.badRequest("Sort direction must be \"asc\" or \"desc\"")
                    }
                    sort.append(SortField(field: field, ascending: text == "asc"))
                default:
                    throw CouchError.badRequest("Invalid sort field: \(JSONWriter.couchDB.string(element))")
                }
            }
        }
        let limit = try Self.findCount(body["limit"], name: "limit") ?? 25
        let skip = try Self.findCount(body["skip"], name: "skip") ?? 0
        var fields: [String]? = nil
        if let value = body["fields"] {
            guard let array = value.arrayValue else { throw CouchError.badRequest("fields must be an array of strings") }
            fields = array.compactMap(\.stringValue)
        }
        var reading = Query(selector: selector, sort: sort, limit: limit, skip: skip)
        // The store parses only the body members the projection keeps (`_id`, `_rev` and
        // `_attachments` come from the revision, not the body).
        reading.fields = fields.map { Array(Set($0.compactMap { $0.split(separator: ".").first.map(String.init) })) }
        let query = reading
        let wantedFields = fields
        let docs = try await database.store.withReader { _ throws -> [JSONObject] in
            let store = database.store
            return try store.find(query).map { revision in
                let rendered = try DocumentRenderer().render(revision, store: store).json
                guard let wantedFields else { return rendered }
                return Self.project(rendered, fields: wantedFields)
            }
        }
        return CouchReply.json(200, FindReply(docs: docs, bookmark: "nil").json)
    }

    /// A `_find` body's `limit` or `skip`: an integer in `0...WireNumber.maximum`, so the
    /// store can add the two without overflow; 400 `bad_request` naming the member otherwise.
    static func findCount(_ value: JSONValue?, name: String) throws -> Int? {
        guard let value else { return nil }
        guard let count = WireNumber.count(value) else {
            throw CouchError.badRequest("\(name) must be an integer from 0 to \(WireNumber.maximum)")
        }
        return count
    }

    /// Keeps only `fields` (dotted paths allowed) of a rendered document.
    static func project(_ document: JSONObject, fields: [String]) -> JSONObject {
        var result = JSONObject()
        for field in fields {
            let path = field.split(separator: ".").map(String.init)
            guard let first = path.first, let value = document[first] else { continue }
            if path.count == 1 {
                result[first] = value
                continue
            }
            var current: JSONValue? = value
            for component in path.dropFirst() { current = current?.objectValue?[component] }
            guard let leaf = current else { continue }
            // Rebuild the nested objects down to the selected leaf.
            var nested = leaf
            for component in path.dropFirst().reversed() { nested = .object([component: nested]) }
            if case .object(let existing)? = result[first], case .object(let adding) = nested {
                result[first] = .object(existing.merging(adding) { old, _ in old })
            } else {
                result[first] = nested
            }
        }
        return result
    }

    /// `POST /{db}/_index`: declares a JSON index on fields.
    func index(_ database: Database, _ request: CouchRequest) async throws -> Response {
        try Self.allow(request, [.post])
        let body = try await request.jsonObjectBody()
        guard let fieldValues = body["index"]?.objectValue?["fields"]?.arrayValue, !fieldValues.isEmpty else {
            throw CouchError(status: 400, error: "missing_required_key", reason: "Missing required key: index.fields")
        }
        var fields = [String]()
        for value in fieldValues {
            switch value {
            case .string(let field): fields.append(field)
            case .object(let object) where object.count == 1: fields.append(object.keys.first!)
            default: throw CouchError.badRequest("Invalid index field: \(JSONWriter.couchDB.string(value))")
            }
        }
        let digest = Insecure.SHA1.hash(data: JSONWriter.couchDB.data(.array(fields.map { .string($0) })))
        let hash = digest.map { String(format: "%02x", $0) }.joined()
        let name = body["name"]?.stringValue ?? hash
        let designName = body["ddoc"]?.stringValue.map { $0.hasPrefix("_design/") ? String($0.dropFirst(8)) : $0 } ?? hash
        let indexFields = fields
        try await database.store.withWriter { _ in try database.store.ensureIndex(fields: indexFields, name: name) }
        return CouchReply.json(200, ["result": "created", "id": .string("_design/\(designName)"), "name": .string(name)])
    }
}
