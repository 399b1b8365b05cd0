/// A query for objects of one entity: predicate, sort, paging, result type.
public struct FetchRequest: Sendable, Hashable {
    /// The entity to fetch.
    public var entityName: String
    /// Objects must satisfy this (`nil`: all).
    public var predicate: ObjectPredicate?
    /// Order of the results, most significant first (unsorted results come in store order).
    public var sortDescriptors: [FetchSortDescriptor]
    /// Maximum number of results (`nil` or 0: no limit).
    public var fetchLimit: Int?
    /// Number of leading results to skip.
    public var fetchOffset: Int
    /// When > 0, only the first `fetchBatchSize` objects come back with their values loaded;
    /// the rest are faults that load on first access.
    public var fetchBatchSize: Int
    /// Objects, IDs or a count.
    public var resultType: FetchResultType
    /// Whether objects of sub-entities match too (default `true`).
    public var includesSubentities: Bool
    /// Whether unsaved inserts, changes and deletions in the context are reflected
    /// (default `true`, as in Core Data).
    public var includesPendingChanges: Bool
    /// The attributes and to-many relationships the caller will read (`nil`: all), as Core
    /// Data's `propertiesToFetch`: a store may leave the others out of the rows it returns,
    /// to be read on first access, so a fetch that needs a type's name does not read the
    /// long list of its recipes. To-one relationships always come.
    public var propertiesToFetch: [String]?

    /// Creates a request.
    public init(entityName: String, predicate: ObjectPredicate? = nil, sortDescriptors: [FetchSortDescriptor] = [],
                fetchLimit: Int? = nil, fetchOffset: Int = 0, fetchBatchSize: Int = 0,
                resultType: FetchResultType = .objects, includesSubentities: Bool = true, includesPendingChanges: Bool = true,
                propertiesToFetch: [String]? = nil) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.fetchBatchSize = fetchBatchSize
        self.resultType = resultType
        self.includesSubentities = includesSubentities
        self.includesPendingChanges = includesPendingChanges
        self.propertiesToFetch = propertiesToFetch
    }
}

/// What a context fetch returns.
public enum FetchResultType: Sendable, Hashable {
    /// Managed objects registered in the context.
    case objects
    /// Object IDs only.
    case objectIDs
    /// The number of matching objects.
    case count
}
