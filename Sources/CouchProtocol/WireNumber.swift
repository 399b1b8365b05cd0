public import DocumentFormat

/// The range every count, length, limit, skip, position or revision number read from the
/// wire must lie in, in a request to the server or a reply to the replicator.
///
/// Numbers arrive as untrusted JSON or query text and are then added, multiplied and
/// compared. Holding each one to `0...maximum` (2^53 − 1, the integers JavaScript clients
/// such as PouchDB hold exactly, and `RevisionID.maximumGeneration`) at the point it is
/// read means a sum or product of two of them fits in `Int` without a check at every use,
/// and a hostile or broken peer gets a typed refusal instead of crashing the process.
public enum WireNumber {
    /// The largest accepted value: 2^53 − 1.
    public static let maximum: Int64 = 9_007_199_254_740_991

    /// `value` as a count in `0...maximum`; `nil` when it is not a JSON integer in that range
    /// (negative, fractional, too large, or not a number).
    public static func count(_ value: JSONValue) -> Int? {
        guard let number = value.intValue, (0...maximum).contains(number) else { return nil }
        return Int(number)
    }

    /// Decimal `text` as a count in `0...maximum`; `nil` when it is not plain digits in that
    /// range.
    public static func count(_ text: some StringProtocol) -> Int? {
        guard let number = Int64(text), (0...maximum).contains(number) else { return nil }
        return Int(number)
    }
}
