public import Foundation

/// A prefix that a `#Predicate` tests ignoring case and diacritics: with
/// `let prefix = LocalizedStandardPrefix("creme")` (made outside the predicate, which calls
/// no initializers), `#Predicate<Note> { $0.title.starts(with: prefix) }` holds for
/// "Crème brûlée", and a typed fetch runs it in the store as `BEGINSWITH[cd]`, the prefix
/// search of a list's index bar.
///
/// The `#Predicate` macro accepts only the methods Foundation knows (`starts(with:)`, not a
/// new `hasPrefix` variant), so the folding rides on the argument's type: inside a
/// predicate, `starts(with:)` with this argument builds
/// `PredicateExpressions.StringLocalizedStandardHasPrefix` instead of
/// Foundation's exact `SequenceStartsWith`. Outside a predicate it is only the characters
/// of ``string`` and `starts(with:)` compares them exactly: use it in predicates.
public struct LocalizedStandardPrefix: Sequence, Codable, Sendable, Hashable {
    /// The prefix as written.
    public let string: String

    /// A prefix to test ignoring case and diacritics.
    public init(_ string: String) { self.string = string }

    /// The characters of ``string``, so that `starts(with:)` type-checks in a predicate.
    public func makeIterator() -> String.Iterator { string.makeIterator() }

    /// Whether `text` begins with the prefix, ignoring case and diacritics (as the store's
    /// `BEGINSWITH[cd]`).
    public func isPrefix(of text: some StringProtocol) -> Bool {
        let options: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
        return PredicateEvaluator.normalize(String(text), options).hasPrefix(PredicateEvaluator.normalize(string, options))
    }
}

extension PredicateExpressions {
    /// `root.starts(with: LocalizedStandardPrefix(prefix))` in a predicate: whether `root`
    /// begins with `prefix` ignoring case and diacritics. Typed fetches run it in the store
    /// as `BEGINSWITH[cd]`.
    public struct StringLocalizedStandardHasPrefix<Root: Foundation.PredicateExpression>: Foundation.PredicateExpression
    where Root.Output: StringProtocol {
        /// A Boolean.
        public typealias Output = Bool
        /// The string tested.
        public let root: Root
        /// The prefix it must begin with.
        public let prefix: LocalizedStandardPrefix

        /// The test whether `root` begins with `prefix`, ignoring case and diacritics.
        public init(root: Root, prefix: LocalizedStandardPrefix) {
            self.root = root
            self.prefix = prefix
        }

        /// Evaluates the test in memory, folding case and diacritics as the store's
        /// `BEGINSWITH[cd]` does.
        public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
            prefix.isPrefix(of: try root.evaluate(bindings))
        }
    }

    /// What `#Predicate` calls for `root.starts(with: LocalizedStandardPrefix(…))`: the
    /// case- and diacritic-insensitive test, chosen over Foundation's exact
    /// `SequenceStartsWith` by the prefix's type.
    public static func build_starts<Root>(_ root: Root, with prefix: Value<LocalizedStandardPrefix>) -> StringLocalizedStandardHasPrefix<Root> {
        StringLocalizedStandardHasPrefix(root: root, prefix: prefix.value)
    }
}

extension PredicateExpressions.StringLocalizedStandardHasPrefix: StandardPredicateExpression where Root: StandardPredicateExpression {}

extension PredicateExpressions.StringLocalizedStandardHasPrefix: Codable where Root: Codable {}

extension PredicateExpressions.StringLocalizedStandardHasPrefix: Sendable where Root: Sendable {}

extension PredicateExpressions.StringLocalizedStandardHasPrefix: CustomStringConvertible {
    /// The expression as Foundation describes its own.
    public var description: String { "StringLocalizedStandardHasPrefix(root: \(root), prefix: \(prefix.string.debugDescription))" }
}
