/// The saved values of one object as a values fetch returns them
/// (``ObjectContext/fetchValues(_:_:)``): what a list prints, without a managed object.
///
/// Like Core Data's dictionary results, values are read from the store and registered
/// nowhere, so going through a large book costs the fields read and no object graph.
/// Binary, transformable and encrypted attributes are never part of them (read those from
/// the object: they can be large, and decrypting needs the store's password).
public struct ObjectValues: Sendable, Hashable {
    /// Which object.
    public let objectID: ObjectID
    /// The requested attribute values that are not `null`.
    public var attributes: [String: AttributeValue]
    /// The destinations of to-one relationships (missing means `nil`).
    public var toOne: [String: ObjectID]
    /// The destinations of the requested to-many relationships, in order.
    public var toMany: [String: [ObjectID]]

    /// Values of `objectID`.
    public init(objectID: ObjectID, attributes: [String: AttributeValue], toOne: [String: ObjectID],
                toMany: [String: [ObjectID]]) {
        self.objectID = objectID
        self.attributes = attributes
        self.toOne = toOne
        self.toMany = toMany
    }

}

extension ObjectValues {
    /// Whether a values fetch returns `attribute` when it asks for the `wanted` names (`nil`:
    /// all): never a transient, binary, transformable or encrypted one. Stores answering
    /// ``IncrementalStore/forEachValues(_:_:)`` themselves follow the same rule.
    public static func includes(_ attribute: AttributeDescription, wanted: Set<String>?) -> Bool {
        guard wanted?.contains(attribute.name) ?? true, !attribute.isTransient, !attribute.isEncrypted else { return false }
        return attribute.type != .binary && attribute.type != .transformable
    }

    /// The attributes of `entity` a values fetch returns (``includes(_:wanted:)``).
    static func attributeNames(of entity: EntityDescription, wanted: Set<String>?) -> Set<String> {
        Set(entity.attributes.filter { includes($0, wanted: wanted) }.map(\.name))
    }
}
