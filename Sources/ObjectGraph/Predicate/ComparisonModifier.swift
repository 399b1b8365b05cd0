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
