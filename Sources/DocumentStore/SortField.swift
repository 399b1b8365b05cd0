/// One key of a query's sort order.
public struct SortField: Sendable, Hashable {
    /// Dotted path of the field, e.g. `"name"` or `"meta.created"`.
    public var field: String
    /// Ascending (`true`) or descending.
    public var ascending: Bool

    /// Makes a sort key; ascending unless told otherwise.
    public init(field: String, ascending: Bool = true) {
        self.field = field
        self.ascending = ascending
    }
}
