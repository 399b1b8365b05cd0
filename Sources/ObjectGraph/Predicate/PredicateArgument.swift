public import Foundation

/// A value that can be substituted into a predicate format string (`%@`, `%K`, `%d`, `%f`)
/// or used as the right side of a built predicate.
public protocol PredicateArgument {
    /// The expression the value stands for.
    var predicateExpression: PredicateExpression { get }
}

extension AttributeValue: PredicateArgument {
    /// The value as a constant.
    public var predicateExpression: PredicateExpression { .constant(self) }
}
extension String: PredicateArgument {
    /// A string constant (for `%K`, the key path).
    public var predicateExpression: PredicateExpression { .constant(.string(self)) }
}
extension Int: PredicateArgument {
    /// An integer constant.
    public var predicateExpression: PredicateExpression { .constant(.int(Int64(self))) }
}
extension Int64: PredicateArgument {
    /// An integer constant.
    public var predicateExpression: PredicateExpression { .constant(.int(self)) }
}
extension Int32: PredicateArgument {
    /// An integer constant.
    public var predicateExpression: PredicateExpression { .constant(.int(Int64(self))) }
}
extension Int16: PredicateArgument {
    /// An integer constant.
    public var predicateExpression: PredicateExpression { .constant(.int(Int64(self))) }
}
extension Double: PredicateArgument {
    /// A floating-point constant.
    public var predicateExpression: PredicateExpression { .constant(.double(self)) }
}
extension Float: PredicateArgument {
    /// A floating-point constant.
    public var predicateExpression: PredicateExpression { .constant(.float(self)) }
}
extension Decimal: PredicateArgument {
    /// A decimal constant.
    public var predicateExpression: PredicateExpression { .constant(.decimal(self)) }
}
extension Bool: PredicateArgument {
    /// A boolean constant.
    public var predicateExpression: PredicateExpression { .constant(.bool(self)) }
}
extension Date: PredicateArgument {
    /// A date constant.
    public var predicateExpression: PredicateExpression { .constant(.date(self)) }
}
extension Data: PredicateArgument {
    /// A binary constant.
    public var predicateExpression: PredicateExpression { .constant(.data(self)) }
}
extension UUID: PredicateArgument {
    /// A UUID constant.
    public var predicateExpression: PredicateExpression { .constant(.uuid(self)) }
}
extension URL: PredicateArgument {
    /// A URI constant.
    public var predicateExpression: PredicateExpression { .constant(.uri(self)) }
}
extension ObjectID: PredicateArgument {
    /// A reference to the object.
    public var predicateExpression: PredicateExpression { .object(self) }
}
extension Array: PredicateArgument where Element: PredicateArgument {
    /// A collection, for `IN` and `BETWEEN`.
    public var predicateExpression: PredicateExpression { .aggregate(map(\.predicateExpression)) }
}
extension Set: PredicateArgument where Element: PredicateArgument {
    /// A collection, for `IN`.
    public var predicateExpression: PredicateExpression { .aggregate(map(\.predicateExpression)) }
}
extension Optional: PredicateArgument where Wrapped: PredicateArgument {
    /// The wrapped value, or `nil`.
    public var predicateExpression: PredicateExpression {
        switch self {
        case .none: return .constant(.null)
        case .some(let w): return w.predicateExpression
        }
    }
}
