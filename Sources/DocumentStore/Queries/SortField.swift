import DocumentFormat
/// One key of a query's sort order.
public struct SortField: Sendable, Hashable {
    /// Dotted path of the field, e.g. `"name"` or `"meta.created"`.
    public var field: String
    /// Ascending (`true`) or descending.
    public var ascending: Bool
    /// Whether strings compare ignoring case and accents (`TextFolding`); an index with
    /// the field folded serves this order.
    public var folded: Bool

    /// Makes a sort key; ascending and by plain value unless told otherwise.
    public init(field: String, ascending: Bool = true, folded: Bool = false) {
        self.field = field
        self.ascending = ascending
        self.folded = folded
    }
}
