import Foundation

/// A scratch pad of managed objects: insert, change, delete, fetch, then save (or roll back).
///
/// A context and its objects belong to one isolation domain, as SwiftData's `ModelContext`
/// does, and the compiler keeps them there: a context is not `Sendable`. Make one where the
/// work happens: a function's own (``init(coordinator:name:)``), an ``ObjectActor``'s for
/// background work, or a main-actor one (``forMainActor(coordinator:name:)``) for a user
/// interface. Between contexts, pass ``ObjectID``s (and values such as a generated type's
/// `Snapshot`), then look the object up in the other context (``existingObject(with:)``).
/// Several contexts can share one ``PersistentStoreCoordinator`` (and its row cache), so a
/// background actor can sync while a view reads.
///
/// Saves of other contexts (when ``automaticallyMergesChanges`` is on) and rows changed
/// underneath (another process, a replicator) cannot touch a context from the thread they
/// happen on; they wait, and the context takes them in when it is next used (a fetch, a save,
/// a look-up, a property access) or when ``processPendingChanges()`` is called. A main-actor
/// context takes them in on the main actor as they arrive, so what a view shows follows.
public final class ObjectContext {
    /// The coordinator the context reads and writes through.
    public let coordinator: PersistentStoreCoordinator
    /// A name for diagnostics.
    public let name: String

    /// Changes waiting for this context (see ``processPendingChanges()``).
    let inbox = ContextInbox()
    /// How many uses of the context are running (nested: a save reads objects, which fault).
    private var depth = 0

    var registered: [ObjectID: ManagedObject] = [:]
    var dirty: [ObjectIdentifier: ManagedObject] = [:]
    var insertionCounter = 0
    var policy: MergePolicy = .error
    /// The streams of ``saves()``.
    let saveStreams = NotificationStreams<SaveNotification>()
    /// The streams of ``storeChanges()``.
    let storeChangeStreams = NotificationStreams<StoreChangeSet>()
    /// Failed accesses through generated types, thrown by the next save or fetch.
    var deferredFailures: [ObjectGraphError] = []

    /// Creates a context on `coordinator`, for use in the isolation domain that creates it
    /// (or that it is handed to, as an ``ObjectActor`` is).
    public init(coordinator: PersistentStoreCoordinator, name: String = "context") {
        self.coordinator = coordinator
        self.name = name
        coordinator.register(inbox)
    }

    /// The model of the coordinator.
    public var model: ObjectModel { coordinator.model }

    // MARK: Execution

    /// Runs `body` as one use of the context: the outermost use first takes in the changes
    /// waiting for the context, so nothing is merged in the middle of an operation.
    func entering<T>(_ body: () throws -> T) rethrows -> T {
        if depth == 0, inbox.hasPending { absorbPending() }
        depth += 1
        defer { depth -= 1 }
        return try body()
    }

    /// Takes in what other contexts saved and what changed in the store underneath since the
    /// context was last used. Every fetch, save, look-up and property access does this first;
    /// call it to bring objects held in a view up to date without any of those.
    public func processPendingChanges() {
        entering {}
    }

    /// Merges what waits in the inbox, then posts the store changes to ``storeChanges()``.
    private func absorbPending() {
        guard let pending = inbox.take() else { return }
        depth += 1
        defer { depth -= 1 }
        absorb(updated: pending.updated, deleted: pending.deleted)
        if let changes = pending.storeChanges {
            storeChangeStreams.post(changes)
        }
    }

    /// How save conflicts are resolved (default ``MergePolicy/error``).
    public var mergePolicy: MergePolicy {
        get { entering { policy } }
        set { entering { policy = newValue } }
    }

    // MARK: Registration

    /// The object for an ID: the registered instance, or a new fault (identity map: one
    /// instance per ID per context).
    public func object(with id: ObjectID) throws -> ManagedObject {
        try entering {
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
        try entering {
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
        try entering {
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
    public func registeredObject(for id: ObjectID) -> ManagedObject? { entering { registered[id] } }

    /// Number of objects the context holds.
    public var registeredObjectCount: Int { entering { registered.count } }

    /// Inserts a new object of `entityName` with the model's default values.
    ///
    /// With `id` (the reference string of its ``ObjectID``), the object gets that permanent ID right away instead of a
    /// store-chosen one at save time, for objects whose identity is decided by the caller
    /// (sample data with deterministic IDs, so every machine writes the same documents).
    /// - Throws: ``IncrementalStoreError/duplicateObject(_:)`` (wrapped in
    ///   ``ObjectGraphError/store(_:)``) when the context or the store already has an object
    ///   with that ID.
    public func insert(_ entityName: String, id referenceString: String? = nil) throws -> ManagedObject {
        try entering {
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

    /// Keeps a failed access of a generated type for the next save or fetch.
    func deferFailure(_ failure: ObjectGraphError) {
        entering { deferredFailures.append(failure) }
    }

    /// Throws (and forgets) the first failed access kept since the last save or fetch.
    func throwDeferredFailure() throws {
        guard let first = deferredFailures.first else { return }
        deferredFailures = []
        throw first
    }

    func checkOwned(_ o: ManagedObject) throws {
        guard o.contextStorage === self else { throw ObjectGraphError.differentContext(o.objectID) }
    }

    // MARK: Change tracking

    /// Whether anything was inserted, changed or deleted since the last save.
    public var hasChanges: Bool { entering { dirty.values.contains { $0.insertedFlag || $0.deletedFlag || !$0.pending.isEmpty } } }
    /// Objects inserted and not saved.
    public var insertedObjects: Set<ManagedObject> { entering { Set(dirty.values.filter { $0.insertedFlag && !$0.deletedFlag }) } }
    /// Persisted objects with unsaved changes.
    public var updatedObjects: Set<ManagedObject> { entering { Set(dirty.values.filter { !$0.insertedFlag && !$0.deletedFlag && !$0.pending.isEmpty }) } }
    /// Persisted objects deleted and not saved.
    public var deletedObjects: Set<ManagedObject> { entering { Set(dirty.values.filter { $0.deletedFlag && !$0.insertedFlag }) } }
}

/// A context stays in the isolation domain that made it (see ``ObjectContext``); pass
/// ``ObjectID``s or snapshots across instead.
@available(*, unavailable, message: "a context stays where it was made: pass ObjectIDs or snapshots between tasks and actors")
extension ObjectContext: Sendable {}
