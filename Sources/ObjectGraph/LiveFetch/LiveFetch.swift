import Dispatch

/// A fetch request kept up to date, as Core Data's fetched results controller or a
/// Couchbase Lite live query: an `AsyncSequence` whose first element is the current results
/// and whose later elements each carry the results again with a change set (inserted,
/// updated, deleted, moved, by object ID and index), one after every save or outside change
/// that alters them. It stays quiet otherwise.
///
/// Where changes come from:
/// - saves of any context on the same ``PersistentStoreCoordinator``: the coordinator
///   wakes the iteration at once;
/// - writes the coordinator is not told of (another process saving to the same store file,
///   a replicator pulling documents into it): every ``pollInterval`` (250 ms by default) the
///   iteration reads the store's change token (``IncrementalStore/changeToken()``, for the
///   document store one look-up of its last changes-feed sequence, microseconds), and only
///   when it moved lets the store catch up (``IncrementalStore/processExternalChanges()``)
///   and runs the fetch again. An idle watcher therefore costs four tiny reads a second.
///
/// After each wake the request is fetched again (the saved state, never a context's unsaved
/// changes) and compared with the previous results: by object ID for insertions, deletions
/// and moves, and by the values of the fetched properties for updates (all attributes and
/// to-one relationships, or those ``FetchRequest/propertiesToFetch`` names, to-many ones
/// included when it names them). An element is produced only when that comparison finds a
/// difference. The request's result type is ignored: results are rows.
///
/// Each `for await` over it is its own watch with its own first element; it ends (returns
/// `nil`) when its task is cancelled, within one poll interval, and throws when the store
/// fails.
///
/// ```swift
/// for try await update in context.observe(FetchRequest(entityName: "Recipe", sortDescriptors: [byName])) {
///     for entry in update.changes.inserted { print("new at \(entry.index): \(entry.objectID)") }
/// }
/// ```
public struct LiveFetch: AsyncSequence, Sendable {
    /// The results and their changes.
    public typealias Element = LiveFetchUpdate
    /// A store failure ends the sequence with its error.
    public typealias Failure = any Error

    /// How often an idle watch looks at the store's change token by default.
    public static let defaultPollInterval: Duration = .milliseconds(250)

    /// The coordinator the fetch runs through.
    public let coordinator: PersistentStoreCoordinator
    /// The request observed.
    public let request: FetchRequest
    /// How often the store's change token is read when nothing woke the watch.
    public let pollInterval: Duration

    /// A live fetch of `request` through `coordinator` (``ObjectContext/observe(_:pollInterval:)-(FetchRequest,_)``
    /// makes one for a context's coordinator).
    public init(coordinator: PersistentStoreCoordinator, request: FetchRequest, pollInterval: Duration = LiveFetch.defaultPollInterval) {
        self.coordinator = coordinator
        self.request = request
        self.pollInterval = pollInterval
    }

    /// Starts a watch: it listens to the coordinator from now on.
    public func makeAsyncIterator() -> Iterator { Iterator(self) }

    /// One watch of a ``LiveFetch``.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        private let live: LiveFetch
        private let signal = LiveFetchSignal()
        private var previous: [ObjectID]?
        private var previousValues: [ObjectID: FetchedValues] = [:]
        private var lastToken: StoreChangeToken?

        init(_ live: LiveFetch) {
            self.live = live
            signal.listen(to: live.coordinator)
        }

        /// The first results, then the next change to them; `nil` once the task is cancelled.
        /// - Throws: the store's error (``ObjectGraphError``) when a fetch fails.
        public mutating func next() async throws -> LiveFetchUpdate? {
            if Task.isCancelled { return nil }
            guard let old = previous else {
                let (token, rows) = try await Self.look(live, signal: signal, lastToken: nil, woken: true)
                let fetched = rows ?? []
                lastToken = token
                remember(fetched)
                let ids = fetched.map(\.row.objectID)
                return LiveFetchUpdate(rows: fetched.map(\.row), changes: FetchResultsChangeSet(from: [], to: ids) { _ in false },
                                       isInitial: true)
            }
            while true {
                let woken = await signal.wait(timeout: live.pollInterval)
                if Task.isCancelled { return nil }
                let (token, rows) = try await Self.look(live, signal: signal, lastToken: lastToken, woken: woken)
                lastToken = token
                guard let rows else { continue }
                let oldValues = previousValues
                let newIDs = rows.map(\.row.objectID)
                remember(rows)
                let changes = FetchResultsChangeSet(from: old, to: newIDs) { oldValues[$0] != previousValues[$0] }
                if !changes.isEmpty {
                    return LiveFetchUpdate(rows: rows.map(\.row), changes: changes, isInitial: false)
                }
            }
        }

        private mutating func remember(_ rows: [(row: RowSnapshot, values: FetchedValues)]) {
            previous = rows.map(\.row.objectID)
            previousValues = Dictionary(rows.map { ($0.row.objectID, $0.values) }, uniquingKeysWith: { a, _ in a })
        }

        /// Off the cooperative pool: reads the change token; unless woken by the coordinator
        /// or the token moved, stops there (`nil` rows). Otherwise lets the store catch up
        /// with outside writes when the token moved, and fetches.
        private static func look(_ live: LiveFetch, signal: LiveFetchSignal, lastToken: StoreChangeToken?,
                                 woken: Bool) async throws -> (StoreChangeToken?, [(row: RowSnapshot, values: FetchedValues)]?) {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Result {
                        let token = try live.coordinator.changeToken()
                        let moved = token != nil && token != lastToken
                        guard woken || moved else { return (token, nil) }
                        if moved { try live.coordinator.processExternalChanges() }
                        // Whatever raised the signal until now is covered by the fetch below.
                        signal.lower()
                        return (token, try fetch(live))
                    })
                }
            }
        }

        /// The request's rows now, each with the values compared for updates.
        private static func fetch(_ live: LiveFetch) throws -> [(row: RowSnapshot, values: FetchedValues)] {
            let request = live.request
            let coordinator = live.coordinator
            guard let entity = coordinator.model.entity(named: request.entityName) else {
                throw ObjectGraphError.unknownEntity(request.entityName)
            }
            let limit = (request.fetchLimit ?? 0) > 0 ? request.fetchLimit : nil
            let rows = try coordinator.fetchRows(entity: entity, includesSubentities: request.includesSubentities,
                                                 predicate: request.predicate, sortDescriptors: request.sortDescriptors,
                                                 fetchLimit: limit, fetchOffset: request.fetchOffset,
                                                 propertiesToFetch: request.propertiesToFetch)
            let named = request.propertiesToFetch.map(Set.init)
            let toMany = named.map { names in entity.relationships.filter { $0.isToMany && names.contains($0.name) }.map(\.name) } ?? []
            var seen = Set<ObjectID>()
            return try rows.compactMap { row in
                guard seen.insert(row.objectID).inserted else { return nil }
                var attributes = row.attributes
                if let named { attributes = attributes.filter { named.contains($0.key) } }
                let deferred = named.map { row.deferredAttributes.intersection($0) } ?? row.deferredAttributes
                var lists: [String: [ObjectID]] = [:]
                for name in toMany { lists[name] = try coordinator.toManyDestinations(of: row.objectID, relationship: name) }
                return (row, FetchedValues(attributes: attributes, toOne: row.toOne, toMany: lists,
                                           deferredVersion: deferred.isEmpty ? nil : row.version))
            }
        }
    }
}
