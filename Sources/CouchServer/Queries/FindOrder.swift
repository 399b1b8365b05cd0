import DocumentFormat
import DocumentStore

/// The order of `_find` results, as CouchDB gives it: by the query's sort fields, then by
/// document ID (without a `sort`, by document ID alone, as the `_all_docs` index reads).
/// `_id` may itself be a sort field, in either direction.
struct FindOrder: Sendable {
    /// The query's sort fields, most significant first.
    let sort: [SortField]

    /// The members of a body the sort reads (top-level names), for the store to parse.
    var storeFields: [String] {
        Array(Set(sort.filter { $0.field != "_id" }.compactMap { $0.field.split(separator: ".").first.map(String.init) }))
    }

    /// The sort fields the store itself can order by (document fields, not `_id`).
    var storeSort: [SortField] { sort.filter { $0.field != "_id" } }

    /// A document's place in the order.
    func key(of revision: DocumentRevision) -> MangoBookmark {
        MangoBookmark(sortValues: sort.map { field in
            field.field == "_id" ? .string(revision.id) : Self.value(at: field.field, in: revision.body)
        }, id: revision.id)
    }

    /// `keys` in order, starting after `bookmark` (when given), then `skip` left out and at
    /// most `limit` kept.
    func page(_ keys: [MangoBookmark], after bookmark: MangoBookmark?, skip: Int, limit: Int) -> [MangoBookmark] {
        var ordered = keys.sorted { compare($0, $1) < 0 }
        if let bookmark {
            ordered.removeAll { compare($0, bookmark) <= 0 }
        }
        return Array(ordered.dropFirst(skip).prefix(limit))
    }

    /// Negative when `lhs` comes first, 0 when both are the same place, positive otherwise.
    func compare(_ lhs: MangoBookmark, _ rhs: MangoBookmark) -> Int {
        for (position, field) in sort.enumerated() {
            let order: Int
            switch (lhs.sortValues[position], rhs.sortValues[position]) {
            case (nil, nil): order = 0
            case (nil, _): order = -1
            case (_, nil): order = 1
            case (let a?, let b?):
                if field.field == "_id", let a = a.stringValue, let b = b.stringValue {
                    order = Self.raw(a, b)
                } else {
                    order = CollationKey.compare(a, b)
                }
            }
            if order != 0 { return field.ascending ? order : -order }
        }
        let ascending = sort.last?.ascending ?? true
        let order = Self.raw(lhs.id, rhs.id)
        return ascending ? order : -order
    }

    /// Document IDs in `_all_docs` order: by their UTF-8 bytes.
    private static func raw(_ a: String, _ b: String) -> Int {
        a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : (a.utf8.elementsEqual(b.utf8) ? 0 : 1)
    }

    /// The value at a dotted path, `nil` when the body lacks it.
    private static func value(at path: String, in body: JSONObject) -> JSONValue? {
        guard let parsed = try? FieldPath(path) else { return nil }
        return parsed.value(in: body)
    }
}
