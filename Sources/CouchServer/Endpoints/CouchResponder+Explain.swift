import CouchProtocol
import DocumentFormat
import DocumentStore
import Foundation
import Hummingbird

/// `POST /{db}/_explain`: which index a `_find` would read, in CouchDB's shape.
extension CouchResponder {
    /// Answers `dbname`, `index` (as `GET /{db}/_index` lists it; the special `_all_docs`
    /// one when no index serves the query), `partitioned`, `selector`, `opts`, `limit`,
    /// `skip`, `fields` and `covering`. CouchDB's planner details (`index_candidates`,
    /// `selector_hints`, `mrargs`) are left out: this server plans differently.
    func explain(_ database: Database, _ request: CouchRequest) async throws -> Response {
        try Self.allow(request, [.post])
        let body = try await request.jsonObjectBody()
        let parsed = try FindRequest(body)
        let order = FindOrder(sort: parsed.sort)
        let planQuery = Query(selector: parsed.selector, sort: order.storeSort, limit: parsed.limit, skip: parsed.skip)
        let (plan, designs) = try await database.store.withReader { store in
            (try store.explain(planQuery),
             try store.allDocuments(AllDocsOptions(startKey: "_design/", endKey: "_design0", inclusiveEnd: false)))
        }
        var index = MangoIndex.allDocs
        if plan.hasPrefix("index ") {
            let storeName = String(plan.dropFirst("index ".count))
            let known = designs.flatMap { MangoIndex.indexes(in: $0.body, ddoc: $0.id) }.first { $0.storeName == storeName }
            index = known?.listing
                ?? ["ddoc": .null, "name": .string(storeName), "type": "json", "partitioned": false, "def": ["fields": []]]
        }
        let fields: JSONValue = .array((parsed.fields ?? []).map { .string($0) })
        let sort: JSONObject = Dictionary(parsed.sort.map { ($0.field, JSONValue.string($0.ascending ? "asc" : "desc")) }) { a, _ in a }
        let opts: JSONObject = [
            "use_index": body["use_index"] ?? .array([]), "bookmark": body["bookmark"] ?? "nil",
            "limit": .int(Int64(parsed.limit)), "skip": .int(Int64(parsed.skip)), "sort": .object(sort), "fields": fields,
            "partition": "", "r": 1, "conflicts": false, "stale": false, "update": true, "stable": false,
            "execution_stats": false, "allow_fallback": true,
        ]
        let reply: JSONObject = [
            "dbname": .string(database.name.name), "index": index, "partitioned": false, "selector": ExplainedSelector.normalised(parsed.selector),
            "opts": .object(opts), "limit": .int(Int64(parsed.limit)), "skip": .int(Int64(parsed.skip)),
            "fields": fields, "covering": false,
        ]
        return CouchReply.json(200, .object(reply))
    }
}
