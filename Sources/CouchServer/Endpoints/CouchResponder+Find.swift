import CouchProtocol
import DocumentStore
import Foundation
import HTTPTypes
import Hummingbird
import DocumentFormat

/// Mango queries: `POST /{db}/_find`, served by the store's queries.
extension CouchResponder {
    /// `POST /{db}/_find`.
    func find(_ database: Database, _ request: CouchRequest) async throws -> Response {
        try Self.allow(request, [.post])
        let body = try await request.jsonObjectBody()
        let parsed = try FindRequest(body)
        let (selector, sort, limit, skip, fields) = (parsed.selector, parsed.sort, parsed.limit, parsed.skip, parsed.fields)
        var resumeAfter: MangoBookmark?
        if let value = body["bookmark"] {
            guard let token = value.stringValue else {
                throw CouchError(status: 400, error: "invalid_bookmark",
                                 reason: "Invalid bookmark value: " + JSONWriter.couchDB.string(value))
            }
            resumeAfter = try MangoBookmark.decode(token, sortFieldCount: sort.count)
        }
        let order = FindOrder(sort: sort)
        let resume = resumeAfter
        // The store reads every match's sort values alone (no body beyond them); the page is
        // ordered and cut here, by the sort keys then the document ID, so a bookmark names an
        // exact place in that order; only the page's documents are then read whole.
        var keys = Query(selector: selector)
        keys.fields = order.storeFields
        let keyQuery = keys
        let planQuery = Query(selector: selector, sort: order.storeSort, limit: limit, skip: skip)
        let wantedFields = fields
        let (docs, last, indexed) = try await database.store.withReader { store throws -> ([JSONObject], MangoBookmark?, Bool) in
            let matches = try store.find(keyQuery).map { order.key(of: $0) }
            let page = order.page(matches, after: resume, skip: skip, limit: limit)
            let byID = Dictionary(try store.documents(withIDs: page.map(\.id)).map { ($0.id, $0) }) { first, _ in first }
            var docs: [JSONObject] = []
            for key in page {
                guard let revision = byID[key.id] else { continue }
                let rendered = try DocumentRenderer().render(revision, store: store).json
                docs.append(wantedFields.map { Self.project(rendered, fields: $0) } ?? rendered)
            }
            let indexed = try store.explain(planQuery).hasPrefix("index ")
            return (docs, page.last, indexed)
        }
        let warning = indexed ? nil : "No matching index found, create an index to optimize query time."
        return CouchReply.json(200, FindReply(docs: docs, bookmark: last?.token ?? MangoBookmark.none, warning: warning).json)
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
}
