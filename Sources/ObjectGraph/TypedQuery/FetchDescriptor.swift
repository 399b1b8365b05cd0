public import Foundation

/// A typed fetch of a generated entity type: a Foundation `#Predicate` and `SortDescriptor`s
/// in place of format strings, run by `ObjectContext.fetch(_:)` and
/// ``ObjectContext/fetchCount(_:)``.
///
/// The predicate and sorts are translated into the store's ``ObjectPredicate`` and
/// ``FetchSortDescriptor`` (see ``ObjectPredicate/init(_:)``), so the store filters, sorts
/// and pages with its indexes exactly as for the equivalent ``FetchRequest``. A predicate
/// the store cannot express is an error at fetch time, naming the sub-expression, unless
/// ``allowsInMemoryEvaluation`` lets the context finish the filtering itself.
public struct FetchDescriptor<T: EntityObject>: Sendable {
    /// Objects must satisfy this (`nil`: all objects of the entity, sub-entities included).
    public var predicate: Predicate<T>?
    /// Order of the results, most significant first (empty: store order).
    public var sortBy: [SortDescriptor<T>]
    /// Maximum number of results (`nil` or 0: no limit).
    public var fetchLimit: Int?
    /// Number of leading results to skip.
    public var fetchOffset: Int
    /// Whether unsaved inserts, changes and deletions in the context are reflected.
    public var includesPendingChanges: Bool
    /// Whether a predicate the store cannot express may be evaluated in memory (default
    /// `false`: such a fetch throws ``TypedQueryError``, so a fetch never reads a whole
    /// entity by accident). When `true`, the conjuncts of the predicate that translate go
    /// to the store, the whole predicate is evaluated on what it returns, and the limit
    /// and offset are applied after that filtering.
    public var allowsInMemoryEvaluation: Bool

    /// Creates a descriptor.
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = [], fetchLimit: Int? = nil,
                fetchOffset: Int = 0, includesPendingChanges: Bool = true, allowsInMemoryEvaluation: Bool = false) {
        self.predicate = predicate
        self.sortBy = sortBy
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.includesPendingChanges = includesPendingChanges
        self.allowsInMemoryEvaluation = allowsInMemoryEvaluation
    }

    /// The store's request for this descriptor, and the predicate left to evaluate in
    /// memory (`nil` when the store runs all of it; the request then pages too).
    func storeRequest() throws(TypedQueryError) -> (request: FetchRequest, inMemory: Predicate<T>?) {
        var sorts: [FetchSortDescriptor] = []
        for sort in sortBy { sorts.append(try FetchSortDescriptor(sort)) }
        var request = FetchRequest(entityName: T.entityName, sortDescriptors: sorts, includesPendingChanges: includesPendingChanges)
        guard let predicate else {
            request.fetchLimit = fetchLimit
            request.fetchOffset = fetchOffset
            return (request, nil)
        }
        if !allowsInMemoryEvaluation {
            request.predicate = try ObjectPredicate(predicate)
            request.fetchLimit = fetchLimit
            request.fetchOffset = fetchOffset
            return (request, nil)
        }
        let (translated, failure) = TypedPredicateTranslator.translateConjuncts(predicate)
        request.predicate = translated.isEmpty ? nil : (translated.count == 1 ? translated[0] : .and(translated))
        guard failure != nil else {
            request.fetchLimit = fetchLimit
            request.fetchOffset = fetchOffset
            return (request, nil)
        }
        return (request, predicate)
    }
}
