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
