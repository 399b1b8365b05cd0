/// Typed observation of a ``FetchDescriptor``: an `AsyncSequence` whose first element is the
/// current results and whose next ones come after every save, by any context on the
/// coordinator or by another process writing the same store, that alters them.
///
/// Elements are ``Update`` values of the entity's `Sendable` ``EntityObject/Snapshot``, so a
/// task or actor can iterate it and hand the results to the main actor; pass a snapshot's
/// ``EntitySnapshot/objectID`` back to a context to edit the object. Made by
/// ``ObjectContext/observe(_:pollInterval:)-(FetchDescriptor<T>,_)``; the predicate must
/// translate to the store's query (in-memory evaluation is not available here).
public struct LiveResults<T: EntityObject>: AsyncSequence, Sendable {
    /// One element: the results and how they changed.
    public struct Update: Sendable {
        /// The current results, in the descriptor's order and page.
        public let results: [T.Snapshot]
        /// How the results differ from the previous element's (every result is inserted in
        /// the first).
        public let changes: FetchResultsChangeSet
        /// Whether this is the first element.
        public let isInitial: Bool
    }

    /// What the sequence yields.
    public typealias Element = Update
    /// What iterating can throw: the store's errors.
    public typealias Failure = any Error

    let fetch: LiveFetch

    /// An iterator over the updates.
    public func makeAsyncIterator() -> Iterator { Iterator(base: fetch.makeAsyncIterator()) }

    /// Iterates the updates of one observation.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        var base: LiveFetch.Iterator

        /// The next update: the first at once, the others when the results change.
        public mutating func next() async throws -> Update? {
            guard let update = try await base.next() else { return nil }
            return Update(results: update.rows.map(T.Snapshot.init(row:)), changes: update.changes, isInitial: update.isInitial)
        }
    }
}

extension ObjectContext {
    /// Observes `descriptor`'s results on this context's coordinator (saved state; this
    /// context's unsaved changes are not reflected). Changes by other processes are noticed
    /// by polling the store every `pollInterval`.
    /// - Throws: ``TypedQueryError`` when the predicate or a sort does not translate to the
    ///   store's query.
    public func observe<T: EntityObject>(_ descriptor: FetchDescriptor<T>,
                                         pollInterval: Duration = LiveFetch.defaultPollInterval) throws(TypedQueryError) -> LiveResults<T> {
        var plain = descriptor
        plain.allowsInMemoryEvaluation = false
        let (request, _) = try plain.storeRequest()
        return LiveResults(fetch: observe(request, pollInterval: pollInterval))
    }
}
