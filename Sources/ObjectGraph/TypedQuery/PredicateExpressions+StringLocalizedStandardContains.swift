public import Foundation

#if !canImport(Darwin)
// Apple's Foundation has this expression; swift-foundation on Linux does not, so a
// `#Predicate` calling `localizedStandardContains` does not build there without it. The
// macro turns `$0.name.localizedStandardContains(x)` into
// `PredicateExpressions.build_localizedStandardContains($0.name, x)`, which this supplies.
extension PredicateExpressions {
    /// `root.localizedStandardContains(other)` in a predicate: whether `other` occurs in
    /// `root` ignoring case and diacritics ("Crème" contains "creme"). Typed fetches run it
    /// in the store as `CONTAINS[cd]`, so it is the search a person types into a list.
    public struct StringLocalizedStandardContains<Root: Foundation.PredicateExpression, Other: Foundation.PredicateExpression>: Foundation.PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        /// A Boolean.
        public typealias Output = Bool
        /// The string searched.
        public let root: Root
        /// The string searched for.
        public let other: Other

        /// The test whether `other` occurs in `root`, ignoring case and diacritics.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// Evaluates the test in memory, folding case and diacritics as the store's
        /// `CONTAINS[cd]` does.
        public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
            let options: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
            return PredicateEvaluator.normalize(String(try root.evaluate(bindings)), options)
                .contains(PredicateEvaluator.normalize(String(try other.evaluate(bindings)), options))
        }
    }

    /// What `#Predicate` calls for `root.localizedStandardContains(other)`.
    public static func build_localizedStandardContains<Root, Other>(_ root: Root, _ other: Other) -> StringLocalizedStandardContains<Root, Other> {
        StringLocalizedStandardContains(root: root, other: other)
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

extension PredicateExpressions.StringLocalizedStandardContains: Codable where Root: Codable, Other: Codable {}

extension PredicateExpressions.StringLocalizedStandardContains: Sendable where Root: Sendable, Other: Sendable {}

extension PredicateExpressions.StringLocalizedStandardContains: CustomStringConvertible {
    /// The expression as Foundation describes its own.
    public var description: String { "StringLocalizedStandardContains(root: \(root), other: \(other))" }
}
#endif
