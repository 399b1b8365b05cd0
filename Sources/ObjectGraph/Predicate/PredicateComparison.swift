/// A comparison `[modifier] left operator[options] right`.
public struct PredicateComparison: Sendable, Hashable, CustomStringConvertible {
    /// How a to-many left side is quantified.
    public var modifier: ComparisonModifier
    /// The left expression.
    public var left: PredicateExpression
    /// The operator.
    public var op: PredicateOperator
    /// The right expression.
    public var right: PredicateExpression
    /// String options.
    public var options: ComparisonOptions

    /// Creates a comparison.
    public init(_ left: PredicateExpression, _ op: PredicateOperator, _ right: PredicateExpression,
                modifier: ComparisonModifier = .direct, options: ComparisonOptions = []) {
        self.modifier = modifier
        self.left = left
        self.op = op
        self.right = right
        self.options = options
    }

    /// The comparison in format-string syntax.
    public var description: String {
        (modifier == .direct ? "" : modifier.rawValue + " ") + "\(left) \(op.rawValue)\(options.formatSuffix) \(right)"
    }
}

/// How a comparison treats a to-many left-hand side.
public enum ComparisonModifier: String, Sendable, Hashable {
    /// Compare the value itself (a collection on the left is treated as `ANY`, except
    /// for `CONTAINS`, which then tests membership).
    case direct = ""
    /// True if the comparison holds for at least one element (`ANY`, `SOME`).
    case any = "ANY"
    /// True if it holds for every element (vacuously true for an empty collection).
    case all = "ALL"
    /// True if it holds for no element.
    case none = "NONE"
}

/// String comparison options: `[c]` case-insensitive, `[d]` diacritic-insensitive.
public struct ComparisonOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `[c]`: ignore case.
    public static let caseInsensitive = ComparisonOptions(rawValue: 1)
    /// `[d]`: ignore diacritics (é = e).
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)

    /// The `[cd]` suffix as written in a format string, or "" for no options.
    public var formatSuffix: String {
        var s = ""
        if contains(.caseInsensitive) { s += "c" }
        if contains(.diacriticInsensitive) { s += "d" }
        return s.isEmpty ? "" : "[\(s)]"
    }
}
