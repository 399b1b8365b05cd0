/// An optimistic-locking failure on one object: the store's row is not the one the
/// context's change was based on.
public struct SaveConflict: Sendable, Hashable, CustomStringConvertible {
    /// The object.
    public var objectID: ObjectID
    /// The version the context's change was based on (`nil` for an insert whose ID exists).
    public var baselineVersion: RowVersion?
    /// The store's current row (`nil` when the store deleted the object).
    public var storedSnapshot: RowSnapshot?
    /// Attributes and to-one relationships whose stored value differs from the baseline:
    /// the properties changed underneath (empty when unknown or when the row was deleted).
    public var changedInStore: Set<String>

    /// Creates a conflict.
    public init(objectID: ObjectID, baselineVersion: RowVersion?, storedSnapshot: RowSnapshot?, changedInStore: Set<String>) {
        self.objectID = objectID
        self.baselineVersion = baselineVersion
        self.storedSnapshot = storedSnapshot
        self.changedInStore = changedInStore
    }

    /// A one-line summary.
    public var description: String {
        let stored = storedSnapshot.map { "store has version \($0.version)" } ?? "store deleted the object"
        return "\(objectID): based on version \(baselineVersion?.description ?? "none"), \(stored); changed in store: \(changedInStore.sorted().joined(separator: ", "))"
    }
}
