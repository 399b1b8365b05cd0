/// A predicate tree, as parsed from Core Data's (NSPredicate) format language or built in Swift.
///
/// Evaluate it with ``PredicateEvaluator`` against managed objects or row snapshots; stores
/// may translate it into their own queries.
public indirect enum ObjectPredicate: Sendable, Hashable, CustomStringConvertible {
    /// `TRUEPREDICATE`.
    case truePredicate
    /// `FALSEPREDICATE`.
    case falsePredicate
    /// A comparison.
    case comparison(PredicateComparison)
    /// All sub-predicates hold.
    case and([ObjectPredicate])
    /// At least one sub-predicate holds.
    case or([ObjectPredicate])
    /// The sub-predicate does not hold.
    case not(ObjectPredicate)

    /// Parses a format string, substituting `%@`, `%K`, `%d`, `%f` from `arguments`.
    /// - Throws: ``PredicateParseError`` with the position and what was expected.
    public init(format: String, _ arguments: any PredicateArgument...) throws {
        var parser = PredicateParser(format: format, arguments: arguments)
        self = try parser.parse()
    }

    /// Parses a format string with an array of arguments.
    public init(format: String, argumentArray: [any PredicateArgument]) throws {
        var parser = PredicateParser(format: format, arguments: argumentArray)
        self = try parser.parse()
    }

    /// The predicate in canonical format syntax: compound predicates fully parenthesized,
    /// operators in their canonical spelling.
    public var description: String {
        switch self {
        case .truePredicate: return "TRUEPREDICATE"
        case .falsePredicate: return "FALSEPREDICATE"
        case .comparison(let c): return c.description
        case .and(let items): return "(" + items.map(\.description).joined(separator: " AND ") + ")"
        case .or(let items): return "(" + items.map(\.description).joined(separator: " OR ") + ")"
        case .not(let p): return "NOT \(p.isCompound ? p.description : "(\(p.description))")"
        }
    }

    private var isCompound: Bool {
        switch self {
        case .and, .or: return true
        default: return false
        }
    }

    /// Both predicates hold.
    public static func && (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate { .and([lhs, rhs]) }
    /// Either predicate holds.
    public static func || (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate { .or([lhs, rhs]) }
    /// The predicate does not hold.
    public static prefix func ! (p: ObjectPredicate) -> ObjectPredicate { .not(p) }

    /// Every key path the predicate reads (for stores deciding what they can evaluate).
    public var keyPaths: Set<String> {
        func paths(_ e: PredicateExpression) -> Set<String> {
            switch e {
            case .keyPath(let k): return [k]
            case .aggregate(let items): return items.reduce(into: Set<String>()) { $0.formUnion(paths($1)) }
            default: return []
            }
        }
        switch self {
        case .truePredicate, .falsePredicate: return []
        case .comparison(let c): return paths(c.left).union(paths(c.right))
        case .and(let items), .or(let items): return items.reduce(into: Set<String>()) { $0.formUnion($1.keyPaths) }
        case .not(let p): return p.keyPaths
        }
    }
}
