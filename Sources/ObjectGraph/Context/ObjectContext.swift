import Foundation

/// A scratch pad of managed objects: insert, change, delete, fetch, then save (or roll back).
///
/// Each context runs its work on its own serial queue. Use ``perform(_:)`` (async) or
/// ``performAndWait(_:)`` to work with its objects; the public methods also hop onto the
/// queue themselves, so the context's bookkeeping is never touched from two threads.
/// Managed objects stay inside their context; pass ``ObjectID``s between contexts. Several
/// contexts can share one ``PersistentStoreCoordinator`` (and its row cache), so a
/// background context can sync while another serves reads.
///
/// Do not wait synchronously on two contexts from each other's queues (A inside B's
/// `performAndWait` waiting on B from A's): as with any pair of serial queues, that deadlocks.
public final class ObjectContext: @unchecked Sendable {
    /// The coordinator the context reads and writes through.
    public let coordinator: PersistentStoreCoordinator
    /// A name for diagnostics.
    public let name: String

    private let queue: DispatchQueue
    private let queueToken = UUID()
    private static let queueKey = DispatchSpecificKey<UUID>()

    // All state below is touched only on `queue`.
    private var registered: [ObjectID: ManagedObject] = [:]
    private var dirty: [ObjectIdentifier: ManagedObject] = [:]
    private var insertionCounter = 0
    private var policy: MergePolicy = .error
    private var autoMerge = false
    private var saveObservers: [UUID: @Sendable (SaveNotification) -> Void] = [:]
    private var changeObservers: [UUID: @Sendable (StoreChangeSet) -> Void] = [:]

    /// Creates a context on `coordinator`.
    public init(coordinator: PersistentStoreCoordinator, name: String = "context") {
        self.coordinator = coordinator
        self.name = name
        self.queue = DispatchQueue(label: "ObjectGraph.ObjectContext.\(name)")
        queue.setSpecific(key: Self.queueKey, value: queueToken)
        coordinator.register(self)
    }

    /// The model of the coordinator.
    public var model: ObjectModel { coordinator.model }

    // MARK: Execution

    /// Runs `body` on the context's queue and waits for it (runs inline when already there).
    public func performAndWait<T>(_ body: () throws -> T) rethrows -> T {
        if DispatchQueue.getSpecific(key: Self.queueKey) == queueToken { return try body() }
        return try queue.sync { try body() }
    }

    /// Runs `body` on the context's queue without blocking the caller.
    public func perform<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
            }
        }
    }

    /// Runs a non-throwing `body` on the context's queue without blocking the caller.
    public func perform<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    /// How save conflicts are resolved (default ``MergePolicy/error``).
    public var mergePolicy: MergePolicy {
        get { performAndWait { policy } }
        set { performAndWait { policy = newValue } }
    }

    // MARK: Registration

    /// The object for an ID: the registered instance, or a new fault (identity map: one
    /// instance per ID per context).
    public func object(with id: ObjectID) throws -> ManagedObject {
        try performAndWait {
            if let o = registered[id] { return o }
            guard let entity = model.entity(named: id.entityName) else { throw ObjectGraphError.unknownEntity(id.entityName) }
            let o = ManagedObject(entity: entity, objectID: id, context: self)
            registered[id] = o
            return o
        }
    }

    /// The object for an ID with its values loaded.
    /// - Throws: ``ObjectGraphError/objectNotFound(_:)`` when the store does not have it.
    public func existingObject(with id: ObjectID) throws -> ManagedObject {
        try performAndWait {
            let o = try object(with: id)
            do { try o.fireFault() } catch {
                if !o.insertedFlag, o.pending.isEmpty { registered[id] = nil }
                throw error
            }
            return o
        }
    }

    /// The objects among `ids` that exist, with their values loaded, read from the store
    /// together rather than one by one (an import that checks thousands of IDs). Objects
    /// the store lacks, and deleted ones, are left out; inserted ones are included.
    public func existingObjects(with ids: [ObjectID]) throws -> [ObjectID: ManagedObject] {
        try performAndWait {
            var result: [ObjectID: ManagedObject] = [:]
            var toLoad: [ObjectID] = []
            for id in ids {
                if let o = registered[id], o.baseline != nil || o.insertedFlag {
                    if !o.deletedFlag { result[id] = o }
                } else {
                    toLoad.append(id)
                }
            }
            for row in try coordinator.snapshots(for: toLoad) {
                let o = try object(with: row.objectID)
                if o.baseline == nil { o.baseline = row }
                if !o.deletedFlag { result[row.objectID] = o }
            }
            return result
        }
    }

    /// The registered instance for an ID, without creating one.
    public func registeredObject(for id: ObjectID) -> ManagedObject? { performAndWait { registered[id] } }

    /// Number of objects the context holds.
    public var registeredObjectCount: Int { performAndWait { registered.count } }

    /// Inserts a new object of `entityName` with the model's default values.
    ///
    /// With `referenceString`, the object gets that permanent ID right away instead of a
    /// store-chosen one at save time, for objects whose identity is decided by the caller
    /// (sample data with deterministic IDs, so every machine writes the same documents).
    /// - Throws: ``IncrementalStoreError/duplicateObject(_:)`` (wrapped in
    ///   ``ObjectGraphError/store(_:)``) when the context or the store already has an object
    ///   with that ID.
    public func insert(_ entityName: String, referenceString: String? = nil) throws -> ManagedObject {
        try performAndWait {
            guard let entity = model.entity(named: entityName) else { throw ObjectGraphError.unknownEntity(entityName) }
            guard !entity.isAbstract else { throw ObjectGraphError.abstractEntity(entityName) }
            var id = ObjectID.temporary(entityName: entityName)
            if let referenceString {
                id = ObjectID(entityName: entityName, referenceString: referenceString)
                if try registered[id] != nil || coordinator.snapshot(for: id) != nil {
                    throw ObjectGraphError.store(.duplicateObject(id))
                }
            }
            let o = ManagedObject(entity: entity, objectID: id, context: self)
            o.insertedFlag = true
            insertionCounter += 1
            o.insertionSequence = insertionCounter
            o.pending.reserveCapacity(entity.attributes.count + entity.relationships.count)
            for a in entity.attributes where !a.defaultValue.isNull {
                if a.isTransient { o.transientValues[a.name] = a.defaultValue } else { o.pending[a.name] = .attribute(a.defaultValue) }
            }
            registered[o.objectID] = o
            dirty[ObjectIdentifier(o)] = o
            return o
        }
    }

    func markDirty(_ o: ManagedObject) { dirty[ObjectIdentifier(o)] = o }

    private func checkOwned(_ o: ManagedObject) throws {
        guard o.contextStorage === self else { throw ObjectGraphError.differentContext(o.objectID) }
    }

    // MARK: Change tracking

    /// Whether anything was inserted, changed or deleted since the last save.
    public var hasChanges: Bool { performAndWait { dirty.values.contains { $0.insertedFlag || $0.deletedFlag || !$0.pending.isEmpty } } }
    /// Objects inserted and not saved.
    public var insertedObjects: Set<ManagedObject> { performAndWait { Set(dirty.values.filter { $0.insertedFlag && !$0.deletedFlag }) } }
    /// Persisted objects with unsaved changes.
    public var updatedObjects: Set<ManagedObject> { performAndWait { Set(dirty.values.filter { !$0.insertedFlag && !$0.deletedFlag && !$0.pending.isEmpty }) } }
    /// Persisted objects deleted and not saved.
    public var deletedObjects: Set<ManagedObject> { performAndWait { Set(dirty.values.filter { $0.deletedFlag && !$0.insertedFlag }) } }

    // MARK: Relationship maintenance

    private func inverse(of rel: RelationshipDescription) -> RelationshipDescription? {
        guard let name = rel.inverseName else { return nil }
        return model.entity(named: rel.destinationEntityName)?.relationship(named: name)
    }

    private func checkDestination(_ source: ManagedObject, _ rel: RelationshipDescription, _ dest: ManagedObject) throws {
        try checkOwned(dest)
        guard let want = model.entity(named: rel.destinationEntityName), model.entity(dest.entity, isKindOf: want) else {
            throw ObjectGraphError.wrongDestination(entity: source.entity.name, key: rel.name, expected: rel.destinationEntityName, got: dest.entity.name)
        }
    }

    /// Makes `b` a destination of `a.rel` and `a` a destination of `b`'s inverse, detaching
    /// whatever a to-one side pointed to before.
    func link(_ a: ManagedObject, _ rel: RelationshipDescription, _ b: ManagedObject) throws {
        try checkDestination(a, rel, b)
        if rel.isToMany {
            if try !a.appendToMany(rel.name, b.objectID) { return }
        } else {
            if let current = try a.currentToOne(rel.name) {
                if current == b.objectID { return }
                try unlink(a, rel, try object(with: current))
            }
            try a.primitiveSet(rel.name, .toOne(b.objectID))
        }
        guard let inv = inverse(of: rel) else { return }
        if inv.isToMany {
            try b.appendToMany(inv.name, a.objectID)
        } else {
            if let previous = try b.currentToOne(inv.name), previous != a.objectID {
                try unlink(b, inv, try object(with: previous))
            }
            try b.primitiveSet(inv.name, .toOne(a.objectID))
        }
    }

    /// Removes `b` from `a.rel` and `a` from `b`'s inverse.
    func unlink(_ a: ManagedObject, _ rel: RelationshipDescription, _ b: ManagedObject) throws {
        if rel.isToMany {
            let current = try a.currentToMany(rel.name)
            guard current.contains(b.objectID) else { return }
            try a.primitiveSet(rel.name, .toMany(current.filter { $0 != b.objectID }))
        } else {
            guard try a.currentToOne(rel.name) == b.objectID else { return }
            try a.primitiveSet(rel.name, .toOne(nil))
        }
        guard let inv = inverse(of: rel) else { return }
        try removeInverse(b, inv, a.objectID)
    }

    private func removeInverse(_ b: ManagedObject, _ inv: RelationshipDescription, _ a: ObjectID) throws {
        if inv.isToMany {
            let current = try b.currentToMany(inv.name)
            if current.contains(a) { try b.primitiveSet(inv.name, .toMany(current.filter { $0 != a })) }
        } else if try b.currentToOne(inv.name) == a {
            try b.primitiveSet(inv.name, .toOne(nil))
        }
    }

    private func destinations(_ o: ManagedObject, _ rel: RelationshipDescription) throws -> [ObjectID] {
        rel.isToMany ? try o.currentToMany(rel.name) : (try o.currentToOne(rel.name)).map { [$0] } ?? []
    }

    // MARK: Delete

    /// Deletes an object, applying delete rules: `cascade` deletes destinations too,
    /// `nullify` removes the object from its destinations' inverses, `deny` refuses while
    /// the relationship is not empty, `noAction` leaves destinations as they are.
    /// - Throws: ``ObjectGraphError/deleteDenied(object:relationship:destinations:)``;
    ///   nothing is deleted then.
    public func delete(_ object: ManagedObject) throws {
        try performAndWait {
            try checkOwned(object)
            if object.deletedFlag { return }
            var closure: [ManagedObject] = []
            var seen = Set<ObjectIdentifier>()
            func visit(_ o: ManagedObject) throws {
                guard !o.deletedFlag, seen.insert(ObjectIdentifier(o)).inserted else { return }
                closure.append(o)
                for rel in o.entity.relationships where rel.deleteRule == .cascade {
                    for id in try destinations(o, rel) { try visit(try self.object(with: id)) }
                }
            }
            try visit(object)
            let ids = Set(closure.map(\.objectID))
            for o in closure {
                for rel in o.entity.relationships where rel.deleteRule == .deny {
                    let remaining = try destinations(o, rel).filter { !ids.contains($0) }
                    if !remaining.isEmpty { throw ObjectGraphError.deleteDenied(object: o.objectID, relationship: rel.name, destinations: remaining) }
                }
            }
            for o in closure {
                for rel in o.entity.relationships where rel.deleteRule == .nullify || rel.deleteRule == .cascade {
                    guard let inv = inverse(of: rel) else { continue }
                    for id in try destinations(o, rel) where !ids.contains(id) {
                        try removeInverse(try self.object(with: id), inv, o.objectID)
                    }
                }
            }
            for o in closure {
                try o.fireFault()
                o.deletedFlag = true
                if o.insertedFlag {
                    registered[o.objectID] = nil
                    dirty[ObjectIdentifier(o)] = nil
                    o.contextStorage = nil
                } else {
                    dirty[ObjectIdentifier(o)] = o
                }
            }
        }
    }

    // MARK: Fetch

    /// Objects matching a request (``FetchRequest/resultType`` is ignored; see ``execute(_:)``).
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        try performAndWait { try fetchObjects(request) }
    }

    /// IDs of the objects matching a request.
    public func fetchObjectIDs(_ request: FetchRequest) throws -> [ObjectID] {
        try performAndWait { try fetchObjects(request).map(\.objectID) }
    }

    /// Number of objects matching a request (limit and offset apply).
    public func count(for request: FetchRequest) throws -> Int {
        try performAndWait { try storeCount(request) ?? fetchObjects(request).count }
    }

    /// The count straight from the store when no pending change can affect it, else `nil`.
    private func storeCount(_ request: FetchRequest) throws -> Int? {
        guard let entity = model.entity(named: request.entityName) else { throw ObjectGraphError.unknownEntity(request.entityName) }
        if request.includesPendingChanges {
            let affected = dirty.values.contains {
                request.includesSubentities ? model.entity($0.entity, isKindOf: entity) : $0.entity.name == entity.name
            }
            if affected { return nil }
        }
        guard var n = try coordinator.countRows(entity: entity, includesSubentities: request.includesSubentities,
                                                predicate: request.predicate) else { return nil }
        n = max(0, n - request.fetchOffset)
        if let limit = request.fetchLimit, limit > 0 { n = min(n, limit) }
        return n
    }

    /// The result of a fetch in the shape its ``FetchRequest/resultType`` asks for.
    public enum FetchResult {
        /// Managed objects.
        case objects([ManagedObject])
        /// Object IDs.
        case objectIDs([ObjectID])
        /// A count.
        case count(Int)
    }

    /// Runs a request and returns objects, IDs or a count per its result type.
    public func execute(_ request: FetchRequest) throws -> FetchResult {
        try performAndWait {
            if request.resultType == .count { return .count(try count(for: request)) }
            let objects = try fetchObjects(request)
            switch request.resultType {
            case .objects: return .objects(objects)
            case .objectIDs: return .objectIDs(objects.map(\.objectID))
            case .count: return .count(objects.count)
            }
        }
    }

    private func fetchObjects(_ request: FetchRequest) throws -> [ManagedObject] {
        guard let entity = model.entity(named: request.entityName) else { throw ObjectGraphError.unknownEntity(request.entityName) }
        func matchesEntity(_ o: ManagedObject) -> Bool {
            request.includesSubentities ? model.entity(o.entity, isKindOf: entity) : o.entity.name == entity.name
        }
        let affected = request.includesPendingChanges ? dirty.values.filter(matchesEntity) : []
        let limit = (request.fetchLimit ?? 0) > 0 ? request.fetchLimit : nil
        let storePaging = affected.isEmpty
        let rows: [RowSnapshot]
        do {
            rows = try coordinator.fetchRows(entity: entity, includesSubentities: request.includesSubentities,
                                             predicate: request.predicate, sortDescriptors: request.sortDescriptors,
                                             fetchLimit: storePaging ? limit : nil, fetchOffset: storePaging ? request.fetchOffset : 0)
        } catch ObjectGraphError.store(let e) { throw ObjectGraphError.store(e) }
        var results: [ManagedObject] = []
        for (index, row) in rows.enumerated() {
            let o = try object(with: row.objectID)
            let materialize = request.fetchBatchSize <= 0 || index < request.fetchBatchSize
            if o.pending.isEmpty && !o.deletedFlag && (materialize || o.baseline != nil) {
                if o.baseline?.version != row.version { o.toManyBaseline = [:] }
                o.baseline = row
            }
            results.append(o)
        }
        guard !storePaging else { return results }
        // Reflect pending changes: drop deleted objects, re-check changed ones, add inserted ones.
        let predicate = request.predicate ?? .truePredicate
        var seen = Set(results.map { ObjectIdentifier($0) })
        var filtered: [ManagedObject] = []
        for o in results {
            if o.deletedFlag { continue }
            if !o.pending.isEmpty, try !PredicateEvaluator.evaluate(predicate, on: o) { continue }
            filtered.append(o)
        }
        for o in affected.sorted(by: { $0.insertionSequence < $1.insertionSequence }) where !o.deletedFlag && !seen.contains(ObjectIdentifier(o)) {
            if try PredicateEvaluator.evaluate(predicate, on: o) {
                filtered.append(o)
                seen.insert(ObjectIdentifier(o))
            }
        }
        filtered = try FetchSortDescriptor.sort(filtered, by: request.sortDescriptors) { $0 }
        var page = Array(filtered.dropFirst(request.fetchOffset))
        if let limit { page = Array(page.prefix(limit)) }
        return page
    }

    // MARK: Validation

    private func validate() throws {
        var failures: [ValidationFailure] = []
        let objects = dirty.values.filter { !$0.deletedFlag && ($0.insertedFlag || !$0.pending.isEmpty) }
            .sorted { ($0.entity.name, $0.insertionSequence, $0.objectID.referenceString) < ($1.entity.name, $1.insertionSequence, $1.objectID.referenceString) }
        for o in objects {
            func fail(_ key: String, _ reason: String) { failures.append(ValidationFailure(objectID: o.objectID, key: key, reason: reason)) }
            for a in o.entity.attributes where !a.isTransient {
                let v = try o.currentAttribute(a.name)
                if v.isNull {
                    if !a.isOptional { fail(a.name, "is required but nil") }
                    continue
                }
                let measured: AttributeValue
                let what: String
                switch v {
                case .string(let s): measured = .int(Int64(s.count)); what = "length"
                case .data(let d), .transformable(let d): measured = .int(Int64(d.count)); what = "length"
                default: measured = v; what = "value"
                }
                if let min = a.minValue, let order = AttributeValue.compare(measured, min), order == .orderedAscending {
                    fail(a.name, "\(what) \(measured) is below the minimum \(min)")
                }
                if let max = a.maxValue, let order = AttributeValue.compare(measured, max), order == .orderedDescending {
                    fail(a.name, "\(what) \(measured) is above the maximum \(max)")
                }
            }
            for r in o.entity.relationships where !r.isTransient {
                if r.isToMany {
                    if r.isOptional && r.minCount == 0 && r.maxCount == 0 { continue }
                    let count = try o.currentToMany(r.name, lenient: true).count
                    if count == 0 {
                        if !r.isOptional { fail(r.name, "is required but empty") }
                        continue
                    }
                    if r.minCount > 0 && count < r.minCount { fail(r.name, "has \(count) object(s), needs at least \(r.minCount)") }
                    if r.maxCount > 0 && count > r.maxCount { fail(r.name, "has \(count) object(s), allows at most \(r.maxCount)") }
                } else if !r.isOptional, try o.currentToOne(r.name) == nil {
                    fail(r.name, "is required but nil")
                }
            }
        }
        if !failures.isEmpty { throw ObjectGraphError.validation(failures) }
    }

    // MARK: Save

    private func fullChange(_ o: ManagedObject, changedKeys: Set<String>, baseline: RowSnapshot?) throws -> ObjectChange {
        var attributes: [String: AttributeValue] = [:]
        attributes.reserveCapacity(o.entity.attributes.count)
        var toOne: [String: ObjectID] = [:]
        var toMany: [String: [ObjectID]] = [:]
        for a in o.entity.attributes where !a.isTransient { attributes[a.name] = try o.currentAttribute(a.name) }
        for r in o.entity.relationships where !r.isTransient {
            if r.isToMany { toMany[r.name] = try o.currentToMany(r.name, lenient: true) }
            else if let id = try o.currentToOne(r.name) { toOne[r.name] = id }
        }
        return ObjectChange(objectID: o.objectID, attributes: attributes, toOne: toOne, toMany: toMany, changedKeys: changedKeys, baseline: baseline)
    }

    private func buildRequest() throws -> StoreSaveRequest {
        let objects = dirty.values.sorted { ($0.insertionSequence, $0.objectID) < ($1.insertionSequence, $1.objectID) }
        var inserted: [ObjectChange] = [], updated: [ObjectChange] = [], deleted: [ObjectDeletion] = []
        for o in objects {
            if o.deletedFlag {
                if !o.insertedFlag { deleted.append(ObjectDeletion(objectID: o.objectID, baseline: o.baseline)) }
            } else if o.insertedFlag {
                inserted.append(try fullChange(o, changedKeys: Set(o.entity.propertyNames), baseline: nil))
            } else if !o.pending.isEmpty {
                try o.fireFault()
                updated.append(try fullChange(o, changedKeys: Set(o.pending.keys), baseline: o.baseline))
            }
        }
        return StoreSaveRequest(inserted: inserted, updated: updated, deleted: deleted)
    }

    /// Replaces temporary IDs by permanent ones everywhere in the context.
    ///
    /// Only unsaved values can name an object that still had a temporary ID: persisted rows
    /// and loaded to-many baselines come from the store, which knows permanent IDs only, and
    /// every object with unsaved values is in `dirty`.
    private func remap(_ mapping: [ObjectID: ObjectID]) {
        guard !mapping.isEmpty else { return }
        for (temporary, permanent) in mapping {
            guard let o = registered.removeValue(forKey: temporary) else { continue }
            o.objectID = permanent
            registered[permanent] = o
        }
        for o in dirty.values where !o.pending.isEmpty {
            var remapped: [String: ManagedObject.PendingValue] = [:]
            for (key, value) in o.pending {
                switch value {
                case .toOne(let d?) where d.isTemporary:
                    remapped[key] = .toOne(mapping[d] ?? d)
                case .toMany(let ids) where ids.contains(where: \.isTemporary):
                    remapped[key] = .toMany(ids.map { $0.isTemporary ? mapping[$0] ?? $0 : $0 })
                default:
                    break
                }
            }
            for (key, value) in remapped { o.pending[key] = value }
        }
    }

    /// Validates, obtains permanent IDs, writes all changes through the coordinator (resolving
    /// conflicts by ``mergePolicy``) and posts a ``SaveNotification`` to the observers.
    /// - Throws: ``ObjectGraphError/validation(_:)`` listing every failing property,
    ///   ``ObjectGraphError/mergeConflicts(_:)`` when the policy does not resolve conflicts.
    ///   After a failed save the context keeps its changes.
    public func save() throws {
        let (notification, observers) = try performAndWait { () -> (SaveNotification?, [@Sendable (SaveNotification) -> Void]) in
            guard hasChanges else { return (nil, []) }
            try validate()
            let temporaries = dirty.values.filter { $0.insertedFlag && !$0.deletedFlag && $0.objectID.isTemporary }
                .sorted { $0.insertionSequence < $1.insertionSequence }
            if !temporaries.isEmpty {
                let permanent = try coordinator.obtainPermanentIDs(for: temporaries.map(\.objectID))
                remap(Dictionary(uniqueKeysWithValues: zip(temporaries.map(\.objectID), permanent)))
            }
            var attempts = 0
            var request: StoreSaveRequest
            var result: StoreSaveResult
            while true {
                request = try buildRequest()
                do {
                    result = try coordinator.save(request)
                    break
                } catch ObjectGraphError.store(.conflicts(let conflicts)) {
                    attempts += 1
                    if attempts > 5 { throw ObjectGraphError.mergeConflicts(conflicts) }
                    try resolve(conflicts)
                }
            }
            for change in [request.inserted, request.updated].joined() {
                guard let o = registered[change.objectID] else { continue }
                o.baseline = RowSnapshot(objectID: change.objectID, attributes: change.attributes, toOne: change.toOne,
                                         version: result.versions[change.objectID] ?? RowVersion(""))
                o.toManyBaseline = change.toMany
                o.pending = [:]
                o.insertedFlag = false
            }
            for deletion in request.deleted {
                if let o = registered.removeValue(forKey: deletion.objectID) { o.contextStorage = nil }
            }
            dirty = [:]
            let note = SaveNotification(inserted: Set(request.inserted.map(\.objectID)),
                                        updated: Set(request.updated.map(\.objectID)),
                                        deleted: Set(request.deleted.map(\.objectID)))
            return (note, Array(saveObservers.values))
        }
        if let notification {
            for observer in observers { observer(notification) }
            coordinator.contextDidSave(self, notification)
        }
    }

    /// Whether saves of other contexts on the same coordinator are merged into this one
    /// automatically (asynchronously, on this context's queue). Default `false`.
    public var automaticallyMergesChanges: Bool {
        get { performAndWait { autoMerge } }
        set { performAndWait { autoMerge = newValue } }
    }

    func siblingDidSave(_ notification: SaveNotification) {
        queue.async {
            guard self.autoMerge else { return }
            self.absorb(updated: notification.updated, deleted: notification.deleted)
        }
    }

    /// Three-way merge of a pending to-many value with the store's current destinations.
    private func mergeToMany(_ o: ManagedObject) throws {
        for (key, value) in o.pending {
            guard case .toMany(let mine) = value else { continue }
            let base = o.toManyBaseline[key] ?? []
            let stored = try coordinator.toManyDestinations(of: o.objectID, relationship: key)
            let added = mine.filter { !base.contains($0) }
            let removed = Set(base.filter { !mine.contains($0) })
            o.pending[key] = .toMany(stored.filter { !removed.contains($0) } + added.filter { !stored.contains($0) })
            o.toManyBaseline[key] = stored
        }
    }

    private func forget(_ o: ManagedObject) {
        registered[o.objectID] = nil
        dirty[ObjectIdentifier(o)] = nil
        o.contextStorage = nil
    }

    private func resolve(_ conflicts: [SaveConflict]) throws {
        coordinator.invalidateCache(for: conflicts.map(\.objectID))
        for conflict in conflicts {
            guard let o = registered[conflict.objectID] else { continue }
            let resolution: MergeResolution
            switch policy {
            case .error: throw ObjectGraphError.mergeConflicts(conflicts)
            case .storeTrumps: resolution = .storeTrumps
            case .objectTrumps: resolution = .objectTrumps
            case .rollback: resolution = .rollback
            case .custom(let decide): resolution = decide(MergeConflict(conflict: conflict, localChanges: o.pendingAttributes))
            }
            let stored = conflict.storedSnapshot
            switch resolution {
            case .fail:
                throw ObjectGraphError.mergeConflicts(conflicts)
            case .rollback:
                guard let stored else { forget(o); continue }
                o.pending = [:]
                o.deletedFlag = false
                o.baseline = stored
                o.toManyBaseline = [:]
                dirty[ObjectIdentifier(o)] = nil
            case .storeTrumps, .merged:
                guard let stored else { forget(o); continue }
                if !o.deletedFlag {
                    if case .merged(let values) = resolution {
                        o.pending = o.pending.filter { if case .attribute = $0.value { return false } else { return true } }
                        for (k, v) in values { o.pending[k] = .attribute(v) }
                    } else {
                        for key in conflict.changedInStore {
                            if case .toMany? = o.pending[key] { continue }
                            o.pending[key] = nil
                        }
                    }
                    try mergeToMany(o)
                }
                o.baseline = stored
            case .objectTrumps:
                if o.deletedFlag {
                    if stored == nil { forget(o) } else { o.baseline = stored }
                    continue
                }
                if let stored {
                    try mergeToMany(o)
                    o.baseline = stored
                } else {
                    // Written again: every current value becomes an insert. To-many
                    // relationships never loaded cannot be read from the store any more.
                    for a in o.entity.attributes where !a.isTransient { o.pending[a.name] = .attribute(try o.currentAttribute(a.name)) }
                    for r in o.entity.relationships where !r.isTransient {
                        if r.isToMany {
                            if case .toMany? = o.pending[r.name] { continue }
                            o.pending[r.name] = .toMany(o.toManyBaseline[r.name] ?? [])
                        } else {
                            o.pending[r.name] = .toOne(try o.currentToOne(r.name))
                        }
                    }
                    o.baseline = nil
                    o.toManyBaseline = [:]
                    o.insertedFlag = true
                }
            }
        }
    }

    // MARK: Replication conflicts

    /// Resolves every replication conflict the store reports (objects whose rows hold
    /// concurrent versions) and returns the objects resolved.
    ///
    /// Each losing version is surfaced as a ``MergeConflict``: the store's current (winning)
    /// row is ``SaveConflict/storedSnapshot``, the attributes where the loser differs are
    /// ``MergeConflict/localChanges``. The policy (`policy`, or ``mergePolicy``) decides:
    /// `storeTrumps` and `rollback` keep the winner, `objectTrumps` takes the loser's
    /// differing attributes, `custom` decides per loser, and `error` throws
    /// ``ObjectGraphError/mergeConflicts(_:)`` listing every conflict without changing
    /// anything. Relationships keep the winner's destinations, so inverses stay consistent.
    @discardableResult
    public func resolveReplicationConflicts(policy: MergePolicy? = nil) throws -> [ObjectID] {
        try performAndWait {
            let policy = policy ?? self.policy
            var resolvedIDs: [ObjectID] = []
            var unresolved: [SaveConflict] = []
            for id in try coordinator.objectsWithConflicts() {
                let (currentRow, losers) = try coordinator.conflictState(for: id)
                guard let current = currentRow, !losers.isEmpty else { continue }
                var values = current.attributes
                var changed = Set<String>()
                for loser in losers {
                    let differing = Set(current.attributes.keys).union(loser.attributes.keys)
                        .filter { (current.attributes[$0] ?? .null) != (loser.attributes[$0] ?? .null) }
                    let conflict = SaveConflict(objectID: id, baselineVersion: loser.version, storedSnapshot: current, changedInStore: differing)
                    let local = Dictionary(uniqueKeysWithValues: differing.map { ($0, loser.attributes[$0] ?? .null) })
                    let resolution: MergeResolution
                    switch policy {
                    case .error: unresolved.append(conflict); continue
                    case .storeTrumps: resolution = .storeTrumps
                    case .rollback: resolution = .rollback
                    case .objectTrumps: resolution = .objectTrumps
                    case .custom(let decide): resolution = decide(MergeConflict(conflict: conflict, localChanges: local))
                    }
                    switch resolution {
                    case .fail: throw ObjectGraphError.mergeConflicts([conflict])
                    case .storeTrumps, .rollback: break
                    case .objectTrumps:
                        for (k, v) in local { values[k] = v; changed.insert(k) }
                    case .merged(let merged):
                        for (k, v) in merged { values[k] = v; changed.insert(k) }
                    }
                }
                if case .error = policy { continue }
                guard let entity = model.entity(named: id.entityName) else { continue }
                var toMany: [String: [ObjectID]] = [:]
                for r in entity.relationships where r.isToMany && !r.isTransient {
                    toMany[r.name] = try coordinator.toManyDestinations(of: id, relationship: r.name)
                }
                let change = ObjectChange(objectID: id, attributes: values, toOne: current.toOne, toMany: toMany, changedKeys: changed, baseline: current)
                let version = try coordinator.resolveConflict(for: id, resolved: change, discarding: losers.map(\.version))
                if let o = registered[id] {
                    if dirty[ObjectIdentifier(o)] == nil {
                        o.baseline = nil
                        o.toManyBaseline = [:]
                    } else {
                        o.baseline = RowSnapshot(objectID: id, attributes: values, toOne: current.toOne, version: version)
                    }
                }
                resolvedIDs.append(id)
            }
            if !unresolved.isEmpty { throw ObjectGraphError.mergeConflicts(unresolved) }
            return resolvedIDs
        }
    }

    // MARK: Rollback, refresh, merge

    /// Discards every unsaved change: inserted objects leave the context, deleted ones come
    /// back, changed ones return to their persisted values.
    public func rollback() {
        performAndWait {
            for o in dirty.values {
                if o.insertedFlag {
                    registered[o.objectID] = nil
                    o.contextStorage = nil
                } else {
                    o.pending = [:]
                    o.deletedFlag = false
                    o.toManyBaseline = [:]
                }
            }
            dirty = [:]
        }
    }

    /// Forgets every object: unsaved changes are discarded (as ``rollback()`` does) and
    /// every registered object leaves the context, which starts again empty. Objects taken
    /// from it before must not be used afterwards. A long import resets between batches so
    /// memory stays flat.
    public func reset() {
        performAndWait {
            for o in registered.values { o.contextStorage = nil }
            registered = [:]
            dirty = [:]
        }
    }

    /// Reloads an object from the store. With `mergeChanges` false its unsaved changes are
    /// discarded and it turns into a fault; with true it takes the latest persisted values
    /// and keeps its unsaved changes on top.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        try performAndWait {
            try checkOwned(object)
            guard !object.insertedFlag else { return }
            if mergeChanges {
                guard let row = try coordinator.snapshot(for: object.objectID) else { throw ObjectGraphError.objectNotFound(object.objectID) }
                object.baseline = row
                try mergeToMany(object)
                object.toManyBaseline = object.toManyBaseline.filter { object.pending[$0.key] != nil }
            } else {
                object.pending = [:]
                object.deletedFlag = false
                object.baseline = nil
                object.toManyBaseline = [:]
                dirty[ObjectIdentifier(object)] = nil
            }
        }
    }

    /// Turns every unchanged object back into a fault, so values reload on next access.
    public func refreshAllObjects() {
        performAndWait {
            for o in registered.values where dirty[ObjectIdentifier(o)] == nil {
                o.baseline = nil
                o.toManyBaseline = [:]
            }
        }
    }

    /// Brings this context up to date with another context's save: objects it deleted leave,
    /// objects it updated reload (unchanged ones become faults; changed ones keep their
    /// changes over the new values), and cached to-many relationships reload.
    public func mergeChanges(from notification: SaveNotification) {
        performAndWait { absorb(updated: notification.updated, deleted: notification.deleted) }
    }

    private func absorb(updated: Set<ObjectID>, deleted: Set<ObjectID>) {
        for id in deleted {
            if let o = registered[id] { forget(o) }
        }
        for o in registered.values {
            let changed = dirty[ObjectIdentifier(o)] != nil
            if updated.contains(o.objectID) {
                if changed {
                    if let row = try? coordinator.snapshot(for: o.objectID) {
                        o.baseline = row
                        try? mergeToMany(o)
                    }
                } else {
                    o.baseline = nil
                }
            }
            if !changed { o.toManyBaseline = [:] }
        }
    }

    /// Called by the coordinator when the store changed underneath; applied asynchronously
    /// on the context's queue, then passed to the store-change observers.
    func storeDidChange(_ changes: StoreChangeSet) {
        queue.async {
            self.absorb(updated: changes.updated, deleted: changes.deleted)
            for observer in self.changeObservers.values { observer(changes) }
        }
    }

    // MARK: Observers

    /// Registers a closure called after every successful save of this context (on the
    /// thread that called ``save()``, once the save completed and the context's queue is
    /// free again, so the closure may call into other contexts). Returns a token for removal.
    @discardableResult
    public func addSaveObserver(_ observer: @escaping @Sendable (SaveNotification) -> Void) -> UUID {
        performAndWait {
            let token = UUID()
            saveObservers[token] = observer
            return token
        }
    }

    /// Registers a closure called after this context absorbed changes the store reported
    /// underneath (so the application can reload what it shows).
    @discardableResult
    public func addStoreChangeObserver(_ observer: @escaping @Sendable (StoreChangeSet) -> Void) -> UUID {
        performAndWait {
            let token = UUID()
            changeObservers[token] = observer
            return token
        }
    }

    /// Removes a save or store-change observer.
    public func removeObserver(_ token: UUID) {
        performAndWait {
            saveObservers[token] = nil
            changeObservers[token] = nil
        }
    }
}
