import Foundation
import Synchronization

/// A scratch pad of managed objects: insert, change, delete, fetch, then save (or roll back).
///
/// Each context runs its work on its own serial queue. Use ``perform(_:)-9vkd3`` (async) or
/// ``performAndWait(_:)`` to work with its objects; the public methods also hop onto the
/// queue themselves, so the context's bookkeeping is never touched from two threads.
/// Managed objects stay inside their context; pass ``ObjectID``s between contexts. Several
/// contexts can share one ``PersistentStoreCoordinator`` (and its row cache), so a
/// background context can sync while another serves reads.
///
/// Do not wait synchronously on two contexts from each other's queues (A inside B's
/// `performAndWait` waiting on B from A's): as with any pair of serial queues, that deadlocks.
// Unchecked: the context's state is confined to its serial `queue` (as Core Data confines a
// context to its queue), and every entry point hops onto it, re-entrantly when already on it.
// That confinement is a runtime property the compiler cannot see; a `Mutex` would not do, as
// managed objects and their callbacks call back into the context while it works.
public final class ObjectContext: @unchecked Sendable {
    /// The coordinator the context reads and writes through.
    public let coordinator: PersistentStoreCoordinator
    /// A name for diagnostics.
    public let name: String

    let queue: DispatchQueue
    let queueToken = UUID()
    static let queueKey = DispatchSpecificKey<UUID>()
    /// The thread running the context's queue while it waits synchronously (0: none). A
    /// store that reads on a queue of its own (GRDB's readers) runs a streaming fetch's
    /// callback under that queue on the same thread, where the queue-specific key no longer
    /// says the context's queue is held; this still does, so calling back into the context
    /// from there runs inline instead of deadlocking.
    private let waitingThread = Atomic<UInt>(0)

    // All state below is touched only on `queue`.
    var registered: [ObjectID: ManagedObject] = [:]
    var dirty: [ObjectIdentifier: ManagedObject] = [:]
    var insertionCounter = 0
    var policy: MergePolicy = .error
    var autoMerge = false
    var saveObservers: [UUID: @Sendable (SaveNotification) -> Void] = [:]
    var changeObservers: [UUID: @Sendable (StoreChangeSet) -> Void] = [:]
    /// Failed accesses through generated types, thrown by the next save or fetch.
    var deferredFailures: [ObjectGraphError] = []

    /// Where a context runs its work.
    public enum ConcurrencyType: Sendable, Hashable {
        /// A serial queue of its own: use it from any thread or task through
        /// ``performAndWait(_:)`` and ``perform(_:)-9vkd3``, or make it the executor of an
        /// ``ObjectActor``.
        case privateQueue
        /// The main queue, so main-actor code (a user interface) uses its objects directly,
        /// without hopping or waiting.
        case mainQueue
    }

    /// Where the context runs its work.
    public let concurrencyType: ConcurrencyType
    /// The context's queue as a Swift concurrency executor (see ``ObjectActor``).
    let executor: ContextExecutor

    /// Creates a context on `coordinator`, on a queue of its own or on the main queue.
    public init(coordinator: PersistentStoreCoordinator, name: String = "context", concurrencyType: ConcurrencyType = .privateQueue) {
        self.coordinator = coordinator
        self.name = name
        self.concurrencyType = concurrencyType
        switch concurrencyType {
        case .privateQueue:
            self.queue = DispatchQueue(label: "ObjectGraph.ObjectContext.\(name)")
            queue.setSpecific(key: Self.queueKey, value: queueToken)
        case .mainQueue:
            // Several main-queue contexts share the queue, so it carries one mark for all of
            // them. (Where the main thread is parked in `dispatchMain()`, a worker thread
            // drains the main queue, so "on the main thread" would not say it.)
            self.queue = .main
            _ = Self.markMainQueue
        }
        executor = ContextExecutor(queue: queue)
        coordinator.register(self)
    }

    /// Whether the calling thread runs this context's queue.
    private var isOnQueue: Bool {
        switch concurrencyType {
        case .privateQueue: DispatchQueue.getSpecific(key: Self.queueKey) == queueToken
        case .mainQueue: DispatchQueue.getSpecific(key: Self.mainQueueKey) == true
        }
    }

    /// Marks the main queue as the queue of every main-queue context (once per process).
    private static let markMainQueue: Void = DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    private static let mainQueueKey = DispatchSpecificKey<Bool>()

    /// The model of the coordinator.
    public var model: ObjectModel { coordinator.model }

    // MARK: Execution

    /// Runs `body` on the context's queue and waits for it (runs inline when already there).
    public func performAndWait<T>(_ body: () throws -> T) rethrows -> T {
        let thread = Self.currentThread
        if waitingThread.load(ordering: .acquiring) == thread { return try body() }
        if isOnQueue { return try holding(thread, body) }
        return try queue.sync { try holding(thread, body) }
    }

    /// Runs `body`, on the context's queue, marking `thread` as the one holding it.
    private func holding<T>(_ thread: UInt, _ body: () throws -> T) rethrows -> T {
        let outer = waitingThread.exchange(thread, ordering: .acquiringAndReleasing)
        defer { waitingThread.store(outer, ordering: .releasing) }
        return try body()
    }

    /// An identifier of the calling thread.
    private static var currentThread: UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
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
    /// With `id` (the reference string of its ``ObjectID``), the object gets that permanent ID right away instead of a
    /// store-chosen one at save time, for objects whose identity is decided by the caller
    /// (sample data with deterministic IDs, so every machine writes the same documents).
    /// - Throws: ``IncrementalStoreError/duplicateObject(_:)`` (wrapped in
    ///   ``ObjectGraphError/store(_:)``) when the context or the store already has an object
    ///   with that ID.
    public func insert(_ entityName: String, id referenceString: String? = nil) throws -> ManagedObject {
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

    /// Keeps a failed access of a generated type for the next save or fetch.
    func deferFailure(_ failure: ObjectGraphError) {
        performAndWait { deferredFailures.append(failure) }
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
    public var hasChanges: Bool { performAndWait { dirty.values.contains { $0.insertedFlag || $0.deletedFlag || !$0.pending.isEmpty } } }
    /// Objects inserted and not saved.
    public var insertedObjects: Set<ManagedObject> { performAndWait { Set(dirty.values.filter { $0.insertedFlag && !$0.deletedFlag }) } }
    /// Persisted objects with unsaved changes.
    public var updatedObjects: Set<ManagedObject> { performAndWait { Set(dirty.values.filter { !$0.insertedFlag && !$0.deletedFlag && !$0.pending.isEmpty }) } }
    /// Persisted objects deleted and not saved.
    public var deletedObjects: Set<ManagedObject> { performAndWait { Set(dirty.values.filter { $0.deletedFlag && !$0.insertedFlag }) } }
}
