public import Foundation

extension PredicateExpressions {
    /// `root.localizedStandardHasPrefix(prefix)` in a predicate: whether `root` begins with
    /// `prefix` ignoring case and diacritics ("Crème brûlée" begins with "creme"). Typed
    /// fetches run it in the store as `BEGINSWITH[cd]`: the prefix search of a list's
    /// index bar, which Foundation's predicates do not offer.
    public struct StringLocalizedStandardHasPrefix<Root: Foundation.PredicateExpression, Prefix: Foundation.PredicateExpression>: Foundation.PredicateExpression
    where Root.Output: StringProtocol, Prefix.Output: StringProtocol {
        /// A Boolean.
        public typealias Output = Bool
        /// The string tested.
        public let root: Root
        /// The prefix it must begin with.
        public let prefix: Prefix

        /// The test whether `root` begins with `prefix`, ignoring case and diacritics.
        public init(root: Root, prefix: Prefix) {
            self.root = root
            self.prefix = prefix
        }

        /// Evaluates the test in memory, folding case and diacritics as the store's
        /// `BEGINSWITH[cd]` does.
        public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
            try root.evaluate(bindings).localizedStandardHasPrefix(try prefix.evaluate(bindings))
        }
    }

    /// What `#Predicate` calls for `root.localizedStandardHasPrefix(prefix)`.
    public static func build_localizedStandardHasPrefix<Root, Prefix>(_ root: Root, _ prefix: Prefix) -> StringLocalizedStandardHasPrefix<Root, Prefix> {
        StringLocalizedStandardHasPrefix(root: root, prefix: prefix)
    }
}

extension PredicateExpressions.StringLocalizedStandardHasPrefix: StandardPredicateExpression
where Root: StandardPredicateExpression, Prefix: StandardPredicateExpression {}

extension PredicateExpressions.StringLocalizedStandardHasPrefix: Codable where Root: Codable, Prefix: Codable {}

extension PredicateExpressions.StringLocalizedStandardHasPrefix: Sendable where Root: Sendable, Prefix: Sendable {}

extension PredicateExpressions.StringLocalizedStandardHasPrefix: CustomStringConvertible {
    /// The expression as Foundation describes its own.
    public var description: String { "StringLocalizedStandardHasPrefix(root: \(root), prefix: \(prefix))" }
}

extension StringProtocol {
    /// Whether the string begins with `prefix`, ignoring case and diacritics, as the
    /// store's `BEGINSWITH[cd]` compares: `"Crème brûlée".localizedStandardHasPrefix("creme")`.
    /// In a `#Predicate`, a typed fetch runs it in the store.
    public func localizedStandardHasPrefix<T: StringProtocol>(_ prefix: T) -> Bool {
        let options: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
        return PredicateEvaluator.normalize(String(self), options).hasPrefix(PredicateEvaluator.normalize(String(prefix), options))
    }
}
