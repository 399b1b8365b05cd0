/// The full persistent state of one inserted or updated object, as sent to a store.
public struct ObjectChange: Sendable, Hashable {
    /// Which object (always a permanent ID).
    public var objectID: ObjectID
    /// Every persistent attribute's value (`.null` included), except encrypted attributes
    /// that were neither read nor changed: the store keeps what it holds for those.
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
