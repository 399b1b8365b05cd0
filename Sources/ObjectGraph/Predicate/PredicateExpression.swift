/// One side of a comparison in a predicate.
public indirect enum PredicateExpression: Sendable, Hashable, CustomStringConvertible {
    /// A dotted key path from the evaluated object, e.g. `type.name` or `ingredients.@count`.
    case keyPath(String)
    /// A literal or substituted value.
    case constant(AttributeValue)
    /// A reference to an object (a substituted managed object or object ID).
    case object(ObjectID)
    /// `SELF`, the evaluated object itself.
    case evaluatedObject
    /// A literal collection `{a, b, c}` or a substituted array, for `IN` and `BETWEEN`.
    case aggregate([PredicateExpression])

    /// Words the format language reserves; key paths spelling one are written with `#`.
    static let reservedWords: Set<String> = [
        "AND", "OR", "NOT", "ANY", "ALL", "NONE", "SOME", "IN", "BETWEEN", "LIKE", "MATCHES",
        "CONTAINS", "BEGINSWITH", "ENDSWITH", "TRUEPREDICATE", "FALSEPREDICATE", "NIL", "NULL",
        "YES", "NO", "TRUE", "FALSE", "SELF", "FIRST", "LAST", "SIZE", "SUBQUERY", "FUNCTION",
    ]

    /// The expression in format-string syntax (object references print as `OBJECT(<id>)`,
    /// which the parser does not read back: pass objects by `%@`).
    public var description: String {
        switch self {
        case .keyPath(let path):
            return path.split(separator: ".", omittingEmptySubsequences: false).map { part in
                // A keyword, or a component that does not start like a word (`#1`), keeps its
                // `#` so the rendering parses back to the same key path.
                let startsLikeAWord = part.first.map { $0.isLetter || $0 == "_" || $0 == "@" } ?? false
                return Self.reservedWords.contains(part.uppercased()) || !startsLikeAWord ? "#" + part : String(part)
            }.joined(separator: ".")
        case .constant(let v): return v.description
        case .object(let id): return "OBJECT(\(id.stringRepresentation))"
        case .evaluatedObject: return "SELF"
        case .aggregate(let items): return "{" + items.map(\.description).joined(separator: ", ") + "}"
        }
    }
}
