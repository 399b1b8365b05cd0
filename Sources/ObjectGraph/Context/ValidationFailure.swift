/// One failing property of one object in a validation error.
public struct ValidationFailure: Sendable, Hashable, CustomStringConvertible {
    /// The object.
    public let objectID: ObjectID
    /// The property.
    public let key: String
    /// What is wrong.
    public let reason: String

    /// `Entity.key of <id>: reason`.
    public var description: String { "\(objectID.entityName).\(key) of \(objectID): \(reason)" }
}
