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
