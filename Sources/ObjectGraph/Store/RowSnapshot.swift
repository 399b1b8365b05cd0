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
