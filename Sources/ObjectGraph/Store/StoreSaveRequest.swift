/// The full persistent state of one inserted or updated object, as sent to a store.
public struct ObjectChange: Sendable, Hashable {
    /// Which object (always a permanent ID).
    public var objectID: ObjectID
    /// Every persistent attribute's value (`.null` included).
    public var attributes: [String: AttributeValue]
    /// Every persistent to-one relationship that is set (missing: `nil`).
    public var toOne: [String: ObjectID]
    /// Every persistent to-many relationship's destinations (ordered ones in order).
    public var toMany: [String: [ObjectID]]
    /// The properties the context changed (all of them for inserts).
    public var changedKeys: Set<String>
    /// For updates: the row the change is based on. The store must refuse the save with a
    /// ``SaveConflict`` when its current row's version differs from `baseline.version`.
    public var baseline: RowSnapshot?

    /// Creates a change.
    public init(objectID: ObjectID, attributes: [String: AttributeValue], toOne: [String: ObjectID],
                toMany: [String: [ObjectID]], changedKeys: Set<String>, baseline: RowSnapshot?) {
        self.objectID = objectID
        self.attributes = attributes
        self.toOne = toOne
        self.toMany = toMany
        self.changedKeys = changedKeys
        self.baseline = baseline
    }
}

/// One deleted object, as sent to a store.
public struct ObjectDeletion: Sendable, Hashable {
    /// Which object.
    public var objectID: ObjectID
    /// The row the deletion is based on (conflict if the store's version differs).
    public var baseline: RowSnapshot?

    /// Creates a deletion.
    public init(objectID: ObjectID, baseline: RowSnapshot?) {
        self.objectID = objectID
        self.baseline = baseline
    }
}

/// Everything one context save writes; a store applies it all or nothing.
public struct StoreSaveRequest: Sendable, Hashable {
    /// New objects.
    public var inserted: [ObjectChange]
    /// Changed objects.
    public var updated: [ObjectChange]
    /// Deleted objects.
    public var deleted: [ObjectDeletion]

    /// Creates a request.
    public init(inserted: [ObjectChange], updated: [ObjectChange], deleted: [ObjectDeletion]) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// Whether there is nothing to write.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// What a successful save returns: the new version of every inserted and updated row.
public struct StoreSaveResult: Sendable, Hashable {
    /// New row versions by object ID.
    public var versions: [ObjectID: RowVersion]

    /// Creates a result.
    public init(versions: [ObjectID: RowVersion]) { self.versions = versions }
}
