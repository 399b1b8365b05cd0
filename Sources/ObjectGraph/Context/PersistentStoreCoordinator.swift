import Foundation

/// Connects contexts to one ``IncrementalStore``: serializes store calls, keeps a row cache
/// shared by all its contexts, finishes in memory what a store leaves of a fetch, and
/// forwards changes the store reports underneath to the contexts.
// Unchecked: the row cache, the contexts and the listeners are touched only under `lock`, a
// recursive lock, because a store call made under it re-enters the coordinator (the store
// reports its changes to `storeDidChange` while it saves). `Mutex` is not re-entrant.
public final class PersistentStoreCoordinator: @unchecked Sendable {
    /// The model every context of this coordinator uses.
    public let model: ObjectModel
    /// The store.
    public let store: any IncrementalStore
    /// The store's metadata, read when the coordinator was created.
    public let metadata: StoreMetadata

    private let lock = NSRecursiveLock()
    private var rowCache: [ObjectID: RowSnapshot] = [:]
    /// Objects a bulk read (``snapshots(for:)``) found missing, so inserting them with a
    /// chosen ID need not ask the store again; forgotten at every save and store change.
    private var knownAbsent = Set<ObjectID>()
    private final class WeakInbox { weak var inbox: ContextInbox?; init(_ i: ContextInbox) { inbox = i } }
    /// The inboxes of the contexts on this coordinator, to post saves and store changes to.
    private var inboxes: [ObjectIdentifier: WeakInbox] = [:]
    /// Called after every save through this coordinator and every change the store reports
    /// (live fetches wake on them); see ``addChangeListener(_:)``.
    private var changeListeners: [UUID: @Sendable () -> Void] = [:]

    /// Opens `store` for `model`.
    /// - Throws: ``ObjectGraphError/store(_:)`` when the store cannot be loaded (for example
    ///   it was written with another model version).
    public init(model: ObjectModel, store: any IncrementalStore) throws {
        self.model = model
        self.store = store
        do { self.metadata = try store.loadMetadata(for: model) } catch let e as IncrementalStoreError { throw ObjectGraphError.store(e) }
        store.setChangeObserver { [weak self] changes in self?.storeDidChange(changes) }
    }

    deinit { store.setChangeObserver(nil) }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private func storeCall<T>(_ body: () throws -> T) throws -> T {
        do { return try locked(body) } catch let e as IncrementalStoreError { throw ObjectGraphError.store(e) }
    }

    /// Number of rows in the shared cache.
    public var cachedRowCount: Int { locked { rowCache.count } }

    /// The row of one object, from the cache or the store; `nil` if the store lacks it.
    public func snapshot(for id: ObjectID) throws -> RowSnapshot? {
        if id.isTemporary { return nil }
        return try storeCall {
            if let row = rowCache[id] { return row }
            if knownAbsent.contains(id) { return nil }
            let row = try store.snapshot(for: id)
            rowCache[id] = row
            return row
        }
    }

    /// The rows of several objects, from the cache or in one store call for the rest; objects
    /// the store lacks are left out.
    public func snapshots(for ids: [ObjectID]) throws -> [RowSnapshot] {
        try storeCall {
            var rows: [RowSnapshot] = []
            var missing: [ObjectID] = []
            for id in ids where !id.isTemporary {
                if let row = rowCache[id] { rows.append(row) } else { missing.append(id) }
            }
            guard !missing.isEmpty else { return rows }
            var absent = Set(missing)
            for row in try store.snapshots(for: missing) {
                rowCache[row.objectID] = row
                rows.append(row)
                absent.remove(row.objectID)
            }
            knownAbsent.formUnion(absent)
            return rows
        }
    }

    /// Loads the rows of several objects into the cache in one store call.
    public func prefetch(_ ids: [ObjectID]) throws {
        try storeCall {
            let missing = ids.filter { !$0.isTemporary && rowCache[$0] == nil }
            guard !missing.isEmpty else { return }
            for row in try store.snapshots(for: missing) { rowCache[row.objectID] = row }
        }
    }

    /// A to-many relationship's destinations as the store has them.
    public func toManyDestinations(of id: ObjectID, relationship: String) throws -> [ObjectID] {
        if id.isTemporary { return [] }
        return try storeCall { try store.toManyDestinations(of: id, relationship: relationship) }
    }

    /// Permanent IDs for temporary ones.
    public func obtainPermanentIDs(for ids: [ObjectID]) throws -> [ObjectID] {
        guard !ids.isEmpty else { return [] }
        return try storeCall { try store.obtainPermanentIDs(for: ids) }
    }

    /// Runs `body`, in which contexts on this coordinator may save several times, so that
    /// those saves land together or not at all (see ``IncrementalStore/performAtomically(_:)``).
    /// When `body` throws, every cached row is dropped, since some may come from saves that
    /// were undone.
    public func performAtomically<T>(_ body: () throws -> T) throws -> T {
        do {
            return try store.performAtomically(body)
        } catch let e as IncrementalStoreError {
            discardCachedRows()
            throw ObjectGraphError.store(e)
        } catch {
            discardCachedRows()
            throw error
        }
    }

    /// Drops every cached row (a long import does so between batches to keep its memory flat).
    public func discardCachedRows() {
        locked {
            rowCache = [:]
            knownAbsent = []
        }
    }

    /// Drops cached rows so the next read goes to the store.
    public func invalidateCache(for ids: some Sequence<ObjectID>) {
        locked {
            for id in ids { rowCache[id] = nil }
            knownAbsent = []
        }
    }

    /// Rows matching a fetch, in final order: the store does what it can, the rest (residual
    /// predicate, sort, paging) is done here.
    public func fetchRows(entity: EntityDescription, includesSubentities: Bool, predicate: ObjectPredicate?,
                          sortDescriptors: [FetchSortDescriptor], fetchLimit: Int?, fetchOffset: Int,
                          propertiesToFetch: [String]? = nil) throws -> [RowSnapshot] {
        guard var request = storeRequest(entity: entity, includesSubentities: includesSubentities, predicate: predicate,
                                         sortDescriptors: sortDescriptors, fetchLimit: fetchLimit, fetchOffset: fetchOffset)
        else { return [] }
        request.propertiesToFetch = propertiesToFetch
        return try storeCall {
            let result = try store.execute(request)
            for row in result.rows { rowCache[row.objectID] = row }
            var rows = result.rows
            // A fetch the store answered wholly needs nothing more here.
            if result.residualPredicate == nil, result.isSorted, result.appliedLimitAndOffset { return rows }
            let lookup: (ObjectID) -> RowSnapshot? = { [unowned self] id in try? self.snapshot(for: id) }
            let toMany: (ObjectID, String) -> [ObjectID] = { [unowned self] id, key in (try? self.toManyDestinations(of: id, relationship: key)) ?? [] }
            let deferred: (RowSnapshot, String) -> AttributeValue = { [unowned self] row, key in
                (try? self.deferredAttribute(key, of: row.objectID, version: row.version)) ?? .null
            }
            let subject: (RowSnapshot) -> RowEvaluationSubject = { [model] in
                RowEvaluationSubject(snapshot: $0, model: model, row: lookup, toMany: toMany, deferred: deferred)
            }
            if let residual = result.residualPredicate {
                rows = try rows.filter { try PredicateEvaluator.evaluate(residual, on: subject($0)) }
            }
            if !result.isSorted {
                rows = try FetchSortDescriptor.sort(rows, by: sortDescriptors, subject: subject)
            }
            if !result.appliedLimitAndOffset {
                rows = Array(rows.dropFirst(fetchOffset))
                if let limit = fetchLimit, limit > 0 { rows = Array(rows.prefix(limit)) }
            }
            return rows
        }
    }

    /// The IDs of the rows a fetch selects, in its order and page: from the store alone
    /// when it can answer the whole request that way, else from the fetched rows.
    public func fetchObjectIDs(entity: EntityDescription, includesSubentities: Bool, predicate: ObjectPredicate?,
                               sortDescriptors: [FetchSortDescriptor], fetchLimit: Int?, fetchOffset: Int) throws -> [ObjectID] {
        guard let request = storeRequest(entity: entity, includesSubentities: includesSubentities, predicate: predicate,
                                         sortDescriptors: sortDescriptors, fetchLimit: fetchLimit, fetchOffset: fetchOffset)
        else { return [] }
        if let ids = try storeCall({ try store.fetchObjectIDs(request) }) { return ids }
        return try fetchRows(entity: entity, includesSubentities: includesSubentities, predicate: predicate,
                             sortDescriptors: sortDescriptors, fetchLimit: fetchLimit, fetchOffset: fetchOffset).map(\.objectID)
    }

    /// Hands `body` the saved values of the objects a fetch selects, one at a time, in its
    /// order and page (``ObjectValues``): straight from the store when it can answer the
    /// whole fetch (``IncrementalStore/forEachValues(_:_:)``), else from fetched rows.
    public func forEachValues(entity: EntityDescription, includesSubentities: Bool, predicate: ObjectPredicate?,
                              sortDescriptors: [FetchSortDescriptor], fetchLimit: Int?, fetchOffset: Int,
                              propertiesToFetch: [String]?, _ body: (ObjectValues) throws -> Void) throws {
        guard var request = storeRequest(entity: entity, includesSubentities: includesSubentities, predicate: predicate,
                                         sortDescriptors: sortDescriptors, fetchLimit: fetchLimit, fetchOffset: fetchOffset)
        else { return }
        request.propertiesToFetch = propertiesToFetch
        if try storeCall({ try store.forEachValues(request, body) }) { return }
        // From rows: the requested values of each, as the store would have handed them.
        let wanted = propertiesToFetch.map(Set.init)
        var kept: [String: (attributes: Set<String>, toMany: [String])] = [:]
        let rows = try fetchRows(entity: entity, includesSubentities: includesSubentities, predicate: predicate,
                                 sortDescriptors: sortDescriptors, fetchLimit: fetchLimit, fetchOffset: fetchOffset,
                                 propertiesToFetch: propertiesToFetch)
        for row in rows {
            let entityName = row.objectID.entityName
            if kept[entityName] == nil {
                guard let entity = model.entity(named: entityName) else { throw ObjectGraphError.unknownEntity(entityName) }
                kept[entityName] = (ObjectValues.attributeNames(of: entity, wanted: wanted),
                                    entity.relationships.filter { $0.isToMany && wanted?.contains($0.name) ?? true }.map(\.name))
            }
            let keys = kept[entityName]!
            let attributes = row.attributes.filter {
                keys.attributes.contains($0.key) && !$0.value.isNull && !row.deferredAttributes.contains($0.key)
            }
            var values = ObjectValues(objectID: row.objectID, attributes: attributes, toOne: row.toOne, toMany: [:])
            for name in keys.toMany { values.toMany[name] = try toManyDestinations(of: row.objectID, relationship: name) }
            try body(values)
        }
    }

    /// A fetch as the store sees it: the concrete entities it covers (`nil` when there are
    /// none, so nothing matches).
    private func storeRequest(entity: EntityDescription, includesSubentities: Bool, predicate: ObjectPredicate?,
                              sortDescriptors: [FetchSortDescriptor], fetchLimit: Int?, fetchOffset: Int) -> StoreFetchRequest? {
        let entities = includesSubentities ? model.entityAndSubentities(of: entity) : [entity]
        let names = entities.filter { !$0.isAbstract }.map(\.name)
        guard !names.isEmpty else { return nil }
        return StoreFetchRequest(entityNames: names, predicate: predicate, sortDescriptors: sortDescriptors,
                                 fetchLimit: fetchLimit, fetchOffset: fetchOffset)
    }

    /// The value of a deferred attribute of a row (see ``RowSnapshot/deferredAttributes``);
    /// the cached row of that version keeps it from then on.
    public func deferredAttribute(_ name: String, of id: ObjectID, version: RowVersion) throws -> AttributeValue {
        try storeCall {
            let value = try store.loadDeferredAttribute(name, of: id, version: version)
            if var row = rowCache[id], row.version == version, row.deferredAttributes.contains(name) {
                row.attributes[name] = value
                row.deferredAttributes.remove(name)
                rowCache[id] = row
            }
            return value
        }
    }

    /// The number of stored rows matching a predicate when the store can count them without
    /// building rows, else `nil`.
    public func countRows(entity: EntityDescription, includesSubentities: Bool, predicate: ObjectPredicate?) throws -> Int? {
        let entities = includesSubentities ? model.entityAndSubentities(of: entity) : [entity]
        let names = entities.filter { !$0.isAbstract }.map(\.name)
        guard !names.isEmpty else { return 0 }
        return try storeCall { try store.count(StoreFetchRequest(entityNames: names, predicate: predicate)) }
    }

    /// Writes a save and updates the cache with the new rows.
    /// - Throws: ``ObjectGraphError/store(_:)`` wrapping ``IncrementalStoreError/conflicts(_:)``
    ///   when rows changed since they were read.
    public func save(_ request: StoreSaveRequest) throws -> StoreSaveResult {
        try storeCall {
            knownAbsent = []
            let result = try store.save(request)
            for changes in [request.inserted, request.updated] {
                for change in changes {
                    guard let version = result.versions[change.objectID] else { rowCache[change.objectID] = nil; continue }
                    rowCache[change.objectID] = RowSnapshot(objectID: change.objectID, attributes: change.attributes, toOne: change.toOne, version: version)
                }
            }
            for deletion in request.deleted { rowCache[deletion.objectID] = nil }
            return result
        }
    }

    /// Every object with a replication conflict, as the store reports it
    /// (``IncrementalStore/replicaConflicts()``).
    public func replicaConflicts() throws -> [ReplicaConflict] {
        try storeCall { try store.replicaConflicts() }
    }

    /// The objects with replication conflicts.
    public func objectsWithConflicts() throws -> [ObjectID] {
        try replicaConflicts().map(\.objectID)
    }

    /// Settles every replication conflict in the store as `policy` decides (all or nothing,
    /// ``IncrementalStore/resolveReplicaConflicts(policy:)``), then drops the resolved rows
    /// from the cache and tells the contexts they changed. Returns the objects resolved.
    public func resolveReplicaConflicts(policy: ReplicaMergePolicy) throws -> [ObjectID] {
        let resolved = try storeCall { try store.resolveReplicaConflicts(policy: policy) }
        if !resolved.isEmpty { storeDidChange(StoreChangeSet(updated: Set(resolved))) }
        return resolved
    }

    func register(_ inbox: ContextInbox) {
        locked {
            inboxes = inboxes.filter { $0.value.inbox != nil }
            inboxes[ObjectIdentifier(inbox)] = WeakInbox(inbox)
        }
    }

    /// Tells the other contexts that want it about a save (``ObjectContext/automaticallyMergesChanges``),
    /// then the change listeners.
    func contextDidSave(_ source: ContextInbox, _ notification: SaveNotification) {
        let (others, listeners) = locked { (inboxes.values.compactMap(\.inbox).filter { $0 !== source }, Array(changeListeners.values)) }
        for inbox in others { inbox.post(notification) }
        for listener in listeners { listener() }
    }

    /// Registers `listener`, called (on the saving or reporting thread; it must return
    /// quickly) after every successful save of any context on this coordinator and every
    /// change the store reports underneath. Live fetches wake on it instead of waiting for
    /// their next poll. Returns a token for ``removeChangeListener(_:)``.
    @discardableResult
    func addChangeListener(_ listener: @escaping @Sendable () -> Void) -> UUID {
        locked {
            let token = UUID()
            changeListeners[token] = listener
            return token
        }
    }

    /// Removes a listener added with ``addChangeListener(_:)``.
    func removeChangeListener(_ token: UUID) {
        locked { changeListeners[token] = nil }
    }

    /// The store's change token (``IncrementalStore/changeToken()``): it moves with every
    /// committed write, from this process or another; `nil` when the store cannot tell.
    public func changeToken() throws -> StoreChangeToken? {
        try storeCall { try store.changeToken() }
    }

    /// Lets the store catch up with writes made elsewhere (``IncrementalStore/processExternalChanges()``):
    /// what it finds is dropped from the row cache and passed to the contexts and the change
    /// listeners, as any change reported underneath. Returns it.
    @discardableResult
    public func processExternalChanges() throws -> StoreChangeSet {
        try storeCall { try store.processExternalChanges() }
    }

    /// Called (through the store's observer) when rows changed underneath: drops them from
    /// the cache and lets every context refresh its copies.
    public func storeDidChange(_ changes: StoreChangeSet) {
        let (live, listeners) = locked { () -> ([ContextInbox], [@Sendable () -> Void]) in
            for id in changes.updated.union(changes.deleted).union(changes.inserted) { rowCache[id] = nil }
            knownAbsent = []
            return (inboxes.values.compactMap(\.inbox), Array(changeListeners.values))
        }
        for inbox in live { inbox.post(changes) }
        for listener in listeners { listener() }
    }
}
