/// What a store returns for a ``StoreFetchRequest``.
public struct StoreFetchResult: Sendable, Hashable {
    /// The rows: all rows matching the evaluated part of the predicate.
    public var rows: [RowSnapshot]
    /// The part of the predicate the store did not evaluate (`nil`: it evaluated all of it).
    /// The coordinator filters ``rows`` with it.
    public var residualPredicate: ObjectPredicate?
    /// Whether ``rows`` are already in the requested order.
    public var isSorted: Bool
    /// Whether the store applied limit and offset (allowed only when ``residualPredicate``
    /// is `nil` and ``isSorted`` is true).
    public var appliedLimitAndOffset: Bool

    /// Creates a result.
    public init(rows: [RowSnapshot], residualPredicate: ObjectPredicate?, isSorted: Bool, appliedLimitAndOffset: Bool) {
        self.rows = rows
        self.residualPredicate = residualPredicate
        self.isSorted = isSorted
        self.appliedLimitAndOffset = appliedLimitAndOffset
    }
}
