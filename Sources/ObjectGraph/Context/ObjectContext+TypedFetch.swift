import Foundation

/// Typed fetches: ``FetchDescriptor`` over the same store path as ``FetchRequest``.
extension ObjectContext {
    /// The objects of `T`'s entity (sub-entities included) that match the descriptor, in its
    /// order and page, as views of `T`.
    ///
    /// The predicate and sorts run in the store as the equivalent ``FetchRequest`` would
    /// (through `fetch(_:)` of a ``FetchRequest``), indexes included. With
    /// ``FetchDescriptor/allowsInMemoryEvaluation``, a predicate the store cannot express is
    /// finished in memory: the store fetches by its translatable conjuncts, sorted, and the
    /// page is taken after the whole predicate has filtered the result.
    /// - Throws: ``TypedQueryError`` for a predicate or sort the store cannot run (unless
    ///   in-memory evaluation is allowed), a Foundation `PredicateError` from evaluating it
    ///   in memory, or what `fetch(_:)` of a ``FetchRequest`` throws.
    public func fetch<T: EntityObject>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        let (request, inMemory) = try descriptor.storeRequest()
        let objects = try fetch(request).map(T.init(unchecked:))
        guard let inMemory else { return objects }
        var page = try objects.filter { try inMemory.evaluate($0) }.dropFirst(descriptor.fetchOffset)
        if let limit = descriptor.fetchLimit, limit > 0 { page = page.prefix(limit) }
        return Array(page)
    }

    /// How many objects `fetch(_:)` of the descriptor would return, counted by the store
    /// (``count(for:)``) without making objects of them when it runs the whole predicate.
    /// - Throws: as `fetch(_:)` of the descriptor.
    public func fetchCount<T: EntityObject>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        let (request, inMemory) = try descriptor.storeRequest()
        guard inMemory != nil else { return try count(for: request) }
        return try fetch(descriptor).count
    }
}
