import DocumentFormat

/// A Mango selector in the normal form CouchDB's `_explain` reports it in: every condition an
/// explicit operator (`{"type": "x"}` is `{"type": {"$eq": "x"}}`), nested fields joined by
/// dots (`{"a": {"b": 1}}` is `{"a.b": {"$eq": 1}}`), an object of several conditions an
/// `$and` of one-condition objects, and `$not` and `$nor` pushed down onto the conditions
/// (`$eq`/`$ne`, `$gt`/`$lte`, `$lt`/`$gte`, `$in`/`$nin`, `$and`/`$or` swap). Members of one
/// object are taken in key order, as this server keeps no order of a JSON object's members.
enum ExplainedSelector {
    /// `selector` in normal form; a value that is not an object is returned as it is.
    static func normalised(_ selector: JSONValue) -> JSONValue {
        guard let object = selector.objectValue else { return selector }
        return joined(clauses(object, path: nil))
    }

    /// One object of clauses: none is `{}`, one stays itself, more are an `$and`.
    private static func joined(_ clauses: [JSONValue]) -> JSONValue {
        switch clauses.count {
        case 0: return .object([:])
        case 1: return clauses[0]
        default: return .object(["$and": .array(clauses)])
        }
    }

    /// The one-condition clauses of `object`, whose field conditions apply to `path` (`nil`
    /// at the top of a selector, `""` inside `$allMatch`/`$elemMatch` on a bare value).
    private static func clauses(_ object: JSONObject, path: String?) -> [JSONValue] {
        var result: [JSONValue] = []
        for key in object.keys.sorted() {
            guard let value = object[key] else { continue }
            switch key {
            case "$and", "$or":
                result.append(.object([key: .array((value.arrayValue ?? []).map(normalised))]))
            case "$nor":
                result.append(.object(["$and": .array((value.arrayValue ?? []).map { negated(normalised($0)) })]))
            case "$not":
                let inner = value.objectValue.map { joined(clauses($0, path: path)) } ?? value
                result.append(negated(inner))
            case let operation where operation.hasPrefix("$"):
                let operand: JSONValue
                if operation == "$elemMatch" || operation == "$allMatch", let inner = value.objectValue {
                    operand = joined(clauses(inner, path: ""))
                } else {
                    operand = value
                }
                result.append(.object([path ?? "": .object([operation: operand])]))
            default:
                let field = path.map { $0.isEmpty ? key : "\($0).\(key)" } ?? key
                if let inner = value.objectValue, !inner.isEmpty {
                    result.append(contentsOf: clauses(inner, path: field))
                } else {
                    result.append(.object([field: .object(["$eq": value])]))
                }
            }
        }
        return result
    }

    /// Operators and their negations.
    private static let opposites: [String: String] = [
        "$eq": "$ne", "$ne": "$eq", "$gt": "$lte", "$lte": "$gt", "$lt": "$gte", "$gte": "$lt",
        "$in": "$nin", "$nin": "$in",
    ]

    /// The negation of a normalised clause.
    private static func negated(_ clause: JSONValue) -> JSONValue {
        guard let object = clause.objectValue, object.count == 1, let (key, value) = object.first else {
            return .object(["$not": clause])
        }
        switch key {
        case "$and": return .object(["$or": .array((value.arrayValue ?? []).map(negated))])
        case "$or": return .object(["$and": .array((value.arrayValue ?? []).map(negated))])
        case "$not": return value
        default:
            guard let condition = value.objectValue, condition.count == 1, let (operation, operand) = condition.first,
                  let opposite = opposites[operation] else {
                return .object(["$not": clause])
            }
            return .object([key: .object([opposite: operand])])
        }
    }
}
