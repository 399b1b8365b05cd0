/// A parsed Mango selector: combinators over conditions on fields, matched against bodies the
/// way CouchDB's Mango does (a missing field fails every condition except `$exists: false`).
package indirect enum Selector: Sendable {
    /// Matches everything (the empty selector `{}`).
    case all
    /// Every part matches.
    case and([Selector])
    /// Some part matches.
    case or([Selector])
    /// No part matches.
    case nor([Selector])
    /// The part does not match.
    case not(Selector)
    /// The field at the path satisfies the condition.
    case field(FieldPath, FieldCondition)

    /// Parses a selector object; `.invalidJSON` names what is wrong.
    package init(parsing value: JSONValue) throws {
        self = try Selector.parse(value, prefix: [])
    }

    /// Whether the document `id` with `body` matches; the field `_id` is the document ID, as
    /// in CouchDB.
    package func matches(_ body: JSONObject, id: String) -> Bool {
        switch self {
        case .all: return true
        case .and(let parts): return parts.allSatisfy { $0.matches(body, id: id) }
        case .or(let parts): return parts.contains { $0.matches(body, id: id) }
        case .nor(let parts): return !parts.contains { $0.matches(body, id: id) }
        case .not(let part): return !part.matches(body, id: id)
        case .field(let path, let condition):
            return condition.matches(path.isDocumentID ? .string(id) : path.value(in: body))
        }
    }

    /// Whether a condition anywhere in the selector is on `_id` or is `$text`: the selectors
    /// that a candidate set (``CandidateSet``) serves better than an ordered index.
    package var wantsCandidateSet: Bool {
        switch self {
        case .all: return false
        case .and(let parts), .or(let parts), .nor(let parts): return parts.contains(where: \.wantsCandidateSet)
        case .not(let part): return part.wantsCandidateSet
        case .field(let path, let condition):
            return path.isDocumentID || condition.conjuncts.contains { if case .text = $0 { return true } else { return false } }
        }
    }

    /// The top-level body members the selector reads (`_id` is not one of them).
    package var topLevelFields: Set<String> {
        switch self {
        case .all: return []
        case .and(let parts), .or(let parts), .nor(let parts): return parts.reduce(into: []) { $0.formUnion($1.topLevelFields) }
        case .not(let part): return part.topLevelFields
        case .field(let path, _): return path.isDocumentID ? [] : [path.components[0]]
        }
    }

    /// The conditions that every match must satisfy: the field conditions of the top-level
    /// `$and`, flattened, each paired with its field.
    package var requiredConditions: [(FieldPath, FieldCondition)] {
        switch self {
        case .field(let path, let condition):
            return condition.conjuncts.map { (path, $0) }
        case .and(let parts):
            return parts.flatMap(\.requiredConditions)
        default:
            return []
        }
    }

    private static func parse(_ value: JSONValue, prefix: [String]) throws -> Selector {
        guard case .object(let members) = value else {
            throw DocumentFormatError.invalidJSON("a selector must be a JSON object, not \(value)")
        }
        var parts: [Selector] = []
        for key in CanonicalJSON.sortedKeys(members) {
            let argument = members[key]!
            switch key {
            case "$and", "$or", "$nor":
                guard case .array(let elements) = argument, !elements.isEmpty else {
                    throw DocumentFormatError.invalidJSON("\(key) needs a non-empty array of selectors")
                }
                let subs = try elements.map { try parse($0, prefix: prefix) }
                parts.append(key == "$and" ? .and(subs) : key == "$or" ? .or(subs) : .nor(subs))
            case "$not":
                parts.append(.not(try parse(argument, prefix: prefix)))
            default:
                if key.hasPrefix("$") {
                    throw DocumentFormatError.invalidJSON("unknown selector operator \(key)")
                }
                let path = prefix + (try FieldPath(key)).components
                parts.append(try parseField(FieldPath(components: path), argument))
            }
        }
        switch parts.count {
        case 0: return .all
        case 1: return parts[0]
        default: return .and(parts)
        }
    }

    private static func parseField(_ path: FieldPath, _ argument: JSONValue) throws -> Selector {
        guard case .object(let members) = argument, !members.isEmpty else {
            return .field(path, .eq(argument))
        }
        let operators = members.keys.filter { $0.hasPrefix("$") }
        if operators.isEmpty {
            return try parse(argument, prefix: path.components)
        }
        guard operators.count == members.count else {
            throw DocumentFormatError.invalidJSON(
                "field '\(path.text)' mixes operators and member names; use one or the other")
        }
        return .field(path, try FieldCondition(parsing: members, field: path.text))
    }
}
