/// The persisted state of one object as a store returns it: attribute values, to-one
/// destinations and the row version. To-many relationships are fetched separately with
/// ``IncrementalStore/toManyDestinations(of:relationship:)``.
public struct RowSnapshot: Sendable, Hashable {
    /// Which object.
    public let objectID: ObjectID
    /// Attribute values by name (missing means `null`).
    public var attributes: [String: AttributeValue]
    /// To-one relationship destinations by name (missing means `nil`).
    public var toOne: [String: ObjectID]
    /// The row's version when read.
    public var version: RowVersion
    /// Attributes whose values the store did not load (large binary values); they are read
    /// with ``IncrementalStore/loadDeferredAttribute(_:of:version:)`` on first access.
    public var deferredAttributes: Set<String>

    /// Creates a snapshot.
    public init(objectID: ObjectID, attributes: [String: AttributeValue], toOne: [String: ObjectID], version: RowVersion,
                deferredAttributes: Set<String> = []) {
        self.objectID = objectID
        self.attributes = attributes
        self.toOne = toOne
        self.version = version
        self.deferredAttributes = deferredAttributes
    }
}

extension RowSnapshot {
    /// The attributes and to-one relationships whose values differ between stored values and
    /// this snapshot, taken as the baseline a change was made from: what a store reports as
    /// changed underneath in a ``SaveConflict``.
    public func keysChanged(inStoredAttributes attributes: [String: AttributeValue],
                            toOne: [String: ObjectID]) -> Set<String> {
        var keys = Set<String>()
        for key in Set(attributes.keys).union(self.attributes.keys)
            where (attributes[key] ?? .null) != (self.attributes[key] ?? .null) { keys.insert(key) }
        for key in Set(toOne.keys).union(self.toOne.keys) where toOne[key] != self.toOne[key] { keys.insert(key) }
        return keys
    }
}
