/// A fetch as the coordinator hands it to a store.
///
/// The store evaluates what it can and says what it left (``StoreFetchResult``); the
/// coordinator finishes the rest in memory. ``fetchLimit`` and ``fetchOffset`` may be
/// applied by the store only when it evaluated the whole predicate and the whole sort.
public struct StoreFetchRequest: Sendable, Hashable {
    /// The concrete entities to return rows of (the requested entity and, when sub-entities
    /// are included, all its sub-entities; abstract entities have no rows of their own).
    public var entityNames: [String]
    /// Rows must satisfy this (`nil`: all rows).
    public var predicate: ObjectPredicate?
    /// Requested order, most significant first.
    public var sortDescriptors: [FetchSortDescriptor]
    /// Maximum number of rows (`nil`: no limit).
    public var fetchLimit: Int?
    /// Number of leading rows to skip.
    public var fetchOffset: Int
    /// The attributes and to-many relationships the caller will read (`nil`: all). A store
    /// may leave other attributes out of its rows, listing them in
    /// ``RowSnapshot/deferredAttributes`` (read later through
    /// ``IncrementalStore/loadDeferredAttribute(_:of:version:)``); to-one relationships
    /// always come.
    public var propertiesToFetch: [String]?

    /// Creates a store fetch request.
    public init(entityNames: [String], predicate: ObjectPredicate? = nil, sortDescriptors: [FetchSortDescriptor] = [],
                fetchLimit: Int? = nil, fetchOffset: Int = 0, propertiesToFetch: [String]? = nil) {
        self.entityNames = entityNames
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.propertiesToFetch = propertiesToFetch
    }
}
