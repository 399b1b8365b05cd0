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
