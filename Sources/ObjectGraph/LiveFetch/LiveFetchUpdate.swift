/// One element of a ``LiveFetch``: the fetch's current results and how they changed since
/// the previous element.
///
/// The first element of every iteration is the initial result (``isInitial``; every
/// object counts as inserted). After that an element comes only when a save or an outside
/// change altered the results, so ``changes`` is never empty.
public struct LiveFetchUpdate: Sendable {
    /// The current results, in the request's order and page, as the store returned the
    /// rows (values as fetched, to-many relationships not included).
    public let rows: [RowSnapshot]
    /// How the results differ from the previous element's.
    public let changes: FetchResultsChangeSet
    /// Whether this is the first element (the results as first fetched).
    public let isInitial: Bool

    /// Creates an update.
    public init(rows: [RowSnapshot], changes: FetchResultsChangeSet, isInitial: Bool) {
        self.rows = rows
        self.changes = changes
        self.isInitial = isInitial
    }

    /// The IDs of the current results, in order.
    public var objectIDs: [ObjectID] { rows.map(\.objectID) }
}
