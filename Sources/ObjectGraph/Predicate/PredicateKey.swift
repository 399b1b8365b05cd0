/// A small Swift builder for predicate trees, the typed counterpart of format strings:
/// `PredicateKey("type.name").equals("Dessert")`,
/// `PredicateKey.any("ingredients.name").contains("flour", options: .caseInsensitive)`,
/// `PredicateKey("ingredients").count.greaterThan(5)`; combine with `&&`, `||`, `!`.
public struct PredicateKey: Sendable, Hashable {
    /// The key path.
    public let keyPath: String
    /// The quantifier applied to a to-many key path.
    public let modifier: ComparisonModifier

    /// A key path compared directly.
    public init(_ keyPath: String) { self.keyPath = keyPath; self.modifier = .direct }
    private init(_ keyPath: String, _ modifier: ComparisonModifier) { self.keyPath = keyPath; self.modifier = modifier }

    /// `ANY keyPath …`.
    public static func any(_ keyPath: String) -> PredicateKey { PredicateKey(keyPath, .any) }
    /// `ALL keyPath …`.
    public static func all(_ keyPath: String) -> PredicateKey { PredicateKey(keyPath, .all) }
    /// `NONE keyPath …`.
    public static func none(_ keyPath: String) -> PredicateKey { PredicateKey(keyPath, .none) }
    /// `keyPath.@count`.
    public var count: PredicateKey { PredicateKey(keyPath + ".@count", modifier) }

    private func compare(_ op: PredicateOperator, _ value: PredicateExpression, _ options: ComparisonOptions) -> ObjectPredicate {
        .comparison(PredicateComparison(.keyPath(keyPath), op, value, modifier: modifier, options: options))
    }

    /// `key == value`.
    public func equals(_ value: some PredicateArgument, options: ComparisonOptions = []) -> ObjectPredicate { compare(.equal, value.predicateExpression, options) }
    /// `key != value`.
    public func notEquals(_ value: some PredicateArgument, options: ComparisonOptions = []) -> ObjectPredicate { compare(.notEqual, value.predicateExpression, options) }
    /// `key == nil`.
    public var isNil: ObjectPredicate { compare(.equal, .constant(.null), []) }
    /// `key < value`.
    public func lessThan(_ value: some PredicateArgument) -> ObjectPredicate { compare(.lessThan, value.predicateExpression, []) }
    /// `key <= value`.
    public func lessThanOrEqual(_ value: some PredicateArgument) -> ObjectPredicate { compare(.lessThanOrEqual, value.predicateExpression, []) }
    /// `key > value`.
    public func greaterThan(_ value: some PredicateArgument) -> ObjectPredicate { compare(.greaterThan, value.predicateExpression, []) }
    /// `key >= value`.
    public func greaterThanOrEqual(_ value: some PredicateArgument) -> ObjectPredicate { compare(.greaterThanOrEqual, value.predicateExpression, []) }
    /// `key BEGINSWITH value`.
    public func beginsWith(_ value: String, options: ComparisonOptions = []) -> ObjectPredicate { compare(.beginsWith, value.predicateExpression, options) }
    /// `key ENDSWITH value`.
    public func endsWith(_ value: String, options: ComparisonOptions = []) -> ObjectPredicate { compare(.endsWith, value.predicateExpression, options) }
    /// `key CONTAINS value`.
    public func contains(_ value: some PredicateArgument, options: ComparisonOptions = []) -> ObjectPredicate { compare(.contains, value.predicateExpression, options) }
    /// `key LIKE pattern` (`*` and `?` wildcards).
    public func like(_ pattern: String, options: ComparisonOptions = []) -> ObjectPredicate { compare(.like, pattern.predicateExpression, options) }
    /// `key MATCHES regex`.
    public func matches(_ regex: String, options: ComparisonOptions = []) -> ObjectPredicate { compare(.matches, regex.predicateExpression, options) }
    /// `key IN {values}`.
    public func isIn<T: PredicateArgument>(_ values: [T], options: ComparisonOptions = []) -> ObjectPredicate { compare(.in, values.predicateExpression, options) }
    /// `key BETWEEN {low, high}` (inclusive).
    public func between<T: PredicateArgument>(_ low: T, _ high: T) -> ObjectPredicate {
        compare(.between, .aggregate([low.predicateExpression, high.predicateExpression]), [])
    }
}
