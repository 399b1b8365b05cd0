/// A format string that could not be parsed: where, what was expected and what was found.
public struct PredicateParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 0-based character offset in the format string.
    public let position: Int
    /// What the parser expected at that position.
    public let expected: String
    /// What it found instead (`end of input` at the end).
    public let found: String

    /// `at position N: expected X, found Y`.
    public var description: String { "predicate format error at position \(position): expected \(expected), found \(found)" }
}
