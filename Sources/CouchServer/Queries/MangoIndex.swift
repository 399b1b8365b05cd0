import DocumentFormat
import DocumentStore

/// One Mango JSON index as CouchDB keeps it: a view of a `"language": "query"` design
/// document, whose `options.def.fields` lists the indexed fields in order.
struct MangoIndex: Sendable, Equatable {
    /// The design document's ID (`_design/…`).
    var ddoc: String
    /// The view's name.
    var name: String
    /// The indexed fields, in order, each with its direction.
    var fields: [SortField]
    /// The `partial_filter_selector`, empty when there is none.
    var partialFilter: JSONObject

    /// CouchDB's special index over document IDs, which `GET /{db}/_index` lists first.
    static let allDocs: JSONValue = [
        "ddoc": .null, "name": "_all_docs", "type": "special", "def": ["fields": [["_id": "asc"]]],
    ]

    /// The name of the store's query index for the view `name` of `ddoc`: unique per pair,
    /// as the store's names are.
    static func storeName(ddoc: String, name: String) -> String { ddoc + "/" + name }

    /// The store's name of this index.
    var storeName: String { Self.storeName(ddoc: ddoc, name: name) }

    /// The fields as CouchDB lists them: `[{"field": "asc"}, …]`.
    private var fieldList: JSONValue {
        .array(fields.map { .object([$0.field: .string($0.ascending ? "asc" : "desc")]) })
    }

    /// The view CouchDB writes into the design document for this index.
    var view: JSONValue {
        var map: JSONObject = ["fields": .object(Dictionary(fields.map { ($0.field, JSONValue.string($0.ascending ? "asc" : "desc")) }) { a, _ in a })]
        map["partial_filter_selector"] = .object(partialFilter)
        var def: JSONObject = ["fields": .array(fields.map { $0.ascending ? .string($0.field) : .object([$0.field: "desc"]) })]
        if !partialFilter.isEmpty { def["partial_filter_selector"] = .object(partialFilter) }
        return ["map": .object(map), "reduce": "_count", "options": ["def": .object(def)]]
    }

    /// The entry of `GET /{db}/_index`.
    var listing: JSONValue {
        var def: JSONObject = ["fields": fieldList]
        if !partialFilter.isEmpty { def["partial_filter_selector"] = .object(partialFilter) }
        return ["ddoc": .string(ddoc), "name": .string(name), "type": "json", "partitioned": false, "def": .object(def)]
    }

    /// The indexes a design document declares, by view name; none unless it is a query
    /// design document. Views whose definition does not read as an index are left out.
    static func indexes(in body: JSONObject, ddoc: String) -> [MangoIndex] {
        guard body["language"]?.stringValue == "query", let views = body["views"]?.objectValue else { return [] }
        return views.keys.sorted().compactMap { name in
            guard let def = views[name]?.objectValue?["options"]?.objectValue?["def"]?.objectValue,
                  let list = def["fields"]?.arrayValue, !list.isEmpty else { return nil }
            var fields: [SortField] = []
            for value in list {
                switch value {
                case .string(let field): fields.append(SortField(field: field))
                case .object(let object) where object.count == 1:
                    guard let (field, direction) = object.first else { return nil }
                    fields.append(SortField(field: field, ascending: direction.stringValue != "desc"))
                default: return nil
                }
            }
            return MangoIndex(ddoc: ddoc, name: name, fields: fields, partialFilter: def["partial_filter_selector"]?.objectValue ?? [:])
        }
    }
}
