/// A persistent store the object graph reads and writes rows through, shaped after Core
/// Data's `NSIncrementalStore`.
///
/// The coordinator (``PersistentStoreCoordinator``) is the only caller; it serializes calls,
/// so an implementation needs no reentrancy, but it must be `Sendable` because contexts on
/// other threads reach it through the coordinator, and because it may report changes from
/// its own threads (replication).
///
/// Contract:
/// - **IDs.** The store chooses permanent reference strings in ``obtainPermanentIDs(for:)``
///   (a document store uses `CDTIS-<Entity>-<UUID>`, the document ID). They must be stable
///   forever: an ``ObjectID`` with that reference string is the same object on every run.
/// - **Versions.** Every row carries an opaque ``RowVersion`` (a counter, a revision ID).
///   Each successful write of a row gives it a new version.
/// - **Fetch.** ``execute(_:)`` returns rows; the store says which part of the predicate it
///   did not evaluate and whether it sorted, and the coordinator does the rest in memory.
///   A store that can do nothing returns all rows of the entities with the full predicate as
///   residual. Rows carry attributes and to-one destinations; to-many ones come from
///   ``toManyDestinations(of:relationship:)``.
/// - **Save.** ``save(_:)`` applies inserts, updates and deletions all or nothing. For every
///   update and deletion whose `baseline.version` is not the row's current version (or whose
///   row is gone) it writes nothing and throws ``IncrementalStoreError/conflicts(_:)`` listing
///   every such object, with the current row and the properties that differ from the baseline.
///   The context applies its merge policy and retries.
/// - **Changes underneath.** When rows change other than through ``save(_:)`` (replication,
///   another process), the store calls the observer set with ``setChangeObserver(_:)``; the
///   coordinator then drops cached rows and contexts refresh the objects.
/// - **Replication conflicts.** A store whose rows can hold several concurrent versions
///   (revision trees after replication) reports them in ``replicaConflicts()`` and settles
///   them all in ``resolveReplicaConflicts(policy:)``: deterministically (the winner every
///   replica agrees on is the base), in one transaction (nothing is written if any decision
///   or write fails). Contexts reach it through ``ObjectContext/resolveReplicaConflicts(policy:)``.
///   Stores without such conflicts keep the default implementations (no conflicts).
/// - **Change token.** ``changeToken()`` answers, in microseconds and without reading rows,
///   a value that changes with every committed write that may have changed rows, whoever
///   made it: this store instance, another instance or process on the same file, a
///   replicator. ``processExternalChanges()`` then catches up with the writes that were not
///   made through this instance: it drops what the store cached about them and reports them
///   through the change observer (and returns them). Live fetches (``LiveFetch``) poll the
///   token (every 250 ms by default) and call ``processExternalChanges()`` when it moved, so
///   a watcher sees other processes' saves and replicated documents. `InMemoryStore` counts
///   its writes and reports external ones as they happen (nothing to catch up with);
///   `DocumentIncrementalStore` answers the datastore's last changes-feed sequence (one
///   look-up in its sequence index) and reads the feed from where it last stopped. A store
///   that cannot tell keeps the defaults (`nil`: live fetches then see only changes made
///   through the coordinator or reported by the store; an empty change set).
/// - **Calls are synchronous.** A store that waits on I/O blocks the task or actor that uses
///   the calling context (an ``ObjectActor`` keeps that off the main actor).
public protocol IncrementalStore: AnyObject, Sendable {
    /// Opens the store for `model` and returns its metadata. A new store records the
    /// model's hashes; an existing one written with another model version throws
    /// ``IncrementalStoreError/modelMismatch(storeHash:modelHash:)`` (migration is the
    /// caller's business).
    func loadMetadata(for model: ObjectModel) throws -> StoreMetadata

    /// Returns rows for a fetch; see ``StoreFetchResult`` for what the store may leave undone.
    func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult

    /// Writes one context save, all or nothing; returns the new row versions.
    /// - Throws: ``IncrementalStoreError/conflicts(_:)`` on optimistic-locking failures.
    func save(_ request: StoreSaveRequest) throws -> StoreSaveResult

    /// The current row of one object, or `nil` if the store does not have it.
    func snapshot(for objectID: ObjectID) throws -> RowSnapshot?

    /// The current rows of several objects (missing ones are left out); lets a store batch
    /// reads when a context fires many faults.
    func snapshots(for objectIDs: [ObjectID]) throws -> [RowSnapshot]

    /// Runs `body`, in which the coordinator may save several times, so that its saves
    /// happen all together or not at all: a store with transactions keeps one open around
    /// `body` and rolls it back when `body` throws. The default runs `body` with no such
    /// guarantee. After a failure a store forgets whatever it cached from inside `body`.
    func performAtomically<T>(_ body: () throws -> T) throws -> T
    /// The destinations of a to-many relationship of one object, in order for ordered
    /// relationships.
    /// - Throws: ``IncrementalStoreError/objectNotFound(_:)`` if the object is gone.
    func toManyDestinations(of objectID: ObjectID, relationship: String) throws -> [ObjectID]

    /// Permanent IDs for newly inserted objects, one per temporary ID, same order and entity.
    func obtainPermanentIDs(for temporaryIDs: [ObjectID]) throws -> [ObjectID]

    /// Sets (or clears) the callback for rows changed underneath the coordinator.
    func setChangeObserver(_ observer: (@Sendable (StoreChangeSet) -> Void)?)

    /// The number of rows matching `request` (its limit and offset ignored), counted without
    /// building rows, or `nil` when the store cannot count it exactly (the coordinator then
    /// fetches the rows and counts them).
    func count(_ request: StoreFetchRequest) throws -> Int?

    /// The IDs of the rows `request` selects, in its order and page, when the store can
    /// answer the whole request (predicate, sort, limit and offset) without building rows,
    /// as from an index; `nil` otherwise (the coordinator then fetches rows and takes their
    /// IDs). Lets a caller page through a large result a batch of objects at a time.
    func fetchObjectIDs(_ request: StoreFetchRequest) throws -> [ObjectID]?

    /// Hands `body` the saved values of the rows `request` selects, one at a time, in its
    /// order and page, and returns `true`, when the store can answer the whole request
    /// (predicate, sort, limit and offset) itself, reading only the request's
    /// ``StoreFetchRequest/propertiesToFetch`` (`nil`: every property) and the to-one
    /// relationships, and handing exactly those (``ObjectValues``: no `null`, binary,
    /// transformable or encrypted attribute). Returns `false` without calling `body`
    /// otherwise (the coordinator then fetches rows). Lets a list go through a large result
    /// without building its rows.
    func forEachValues(_ request: StoreFetchRequest, _ body: (ObjectValues) throws -> Void) throws -> Bool

    /// The value of an attribute a row left deferred (``RowSnapshot/deferredAttributes``),
    /// as stored in row version `version`.
    func loadDeferredAttribute(_ name: String, of objectID: ObjectID, version: RowVersion) throws -> AttributeValue

    /// Every object whose row holds concurrent versions (for example from replication), in
    /// object order.
    func replicaConflicts() throws -> [ReplicaConflict]

    /// Settles every replica conflict as `policy` decides per object (``ReplicaMergePolicy/resolution(for:)``):
    /// writes the result as a child of the winning version and discards the other versions,
    /// so each object has one version again. All decisions are taken before anything is
    /// written, and all writes are one transaction: if a decision or a write fails, nothing
    /// changes. Returns the objects resolved, in object order.
    func resolveReplicaConflicts(policy: ReplicaMergePolicy) throws -> [ObjectID]

    /// A value that changes whenever a committed write by anyone (this process, another
    /// process on the same file, a replicator) may have changed rows; cheap enough to poll a
    /// few times a second. `nil` when the store cannot tell.
    func changeToken() throws -> StoreChangeToken?

    /// Catches up with writes made other than through this store instance (another process,
    /// a replicator writing to the same file): forgets what it cached about the rows they
    /// touched, reports them through the change observer (``setChangeObserver(_:)``) and
    /// returns them. A store that reports every such change as it happens returns an empty set.
    @discardableResult
    func processExternalChanges() throws -> StoreChangeSet
}

extension IncrementalStore {
    /// Runs `body` with no all-or-nothing guarantee across its saves (each save still is).
    public func performAtomically<T>(_ body: () throws -> T) throws -> T { try body() }

    /// Cannot count without fetching.
    public func count(_ request: StoreFetchRequest) throws -> Int? { nil }

    /// Cannot list IDs without fetching rows.
    public func fetchObjectIDs(_ request: StoreFetchRequest) throws -> [ObjectID]? { nil }

    /// Cannot read values without fetching rows.
    public func forEachValues(_ request: StoreFetchRequest, _ body: (ObjectValues) throws -> Void) throws -> Bool { false }

    /// Reads the current row (for stores that never defer values).
    public func loadDeferredAttribute(_ name: String, of objectID: ObjectID, version: RowVersion) throws -> AttributeValue {
        try snapshot(for: objectID)?.attributes[name] ?? .null
    }

    /// No conflicts: for stores whose rows have a single version.
    public func replicaConflicts() throws -> [ReplicaConflict] { [] }

    /// Nothing to resolve: for stores whose rows have a single version.
    public func resolveReplicaConflicts(policy: ReplicaMergePolicy) throws -> [ObjectID] { [] }

    /// Cannot tell when rows changed: live fetches see only what the coordinator is told.
    public func changeToken() throws -> StoreChangeToken? { nil }

    /// Nothing to catch up with: the store reports changes as they happen, or not at all.
    @discardableResult
    public func processExternalChanges() throws -> StoreChangeSet { StoreChangeSet() }

    /// The objects ``replicaConflicts()`` reports.
    public func objectsWithConflicts() throws -> [ObjectID] {
        try replicaConflicts().map(\.objectID)
    }

    /// Reads rows one by one through ``snapshot(for:)``.
    public func snapshots(for objectIDs: [ObjectID]) throws -> [RowSnapshot] {
        try objectIDs.compactMap { try snapshot(for: $0) }
    }
}
