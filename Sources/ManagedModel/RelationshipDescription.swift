/// One relationship of an entity as declared in the XML model.
public struct RelationshipDescription: Sendable, Hashable {
    /// The relationship's name, unique among the entity's properties.
    public let name: String
    /// Name of the entity the relationship points to.
    public let destinationEntityName: String
    /// Name of the inverse relationship on the destination, if declared.
    public let inverseName: String?
    /// Name of the entity that declares the inverse (normally the destination).
    public let inverseEntityName: String?
    /// Whether the relationship holds many destinations.
    public let isToMany: Bool
    /// Whether a to-many relationship keeps its destinations in order.
    public let isOrdered: Bool
    /// Whether the relationship may be empty when saving (to-one: may be `nil`).
    public let isOptional: Bool
    /// Transient relationships are never sent to the store.
    public let isTransient: Bool
    /// Minimum number of destinations enforced on save (0 = no minimum).
    public let minCount: Int
    /// Maximum number of destinations enforced on save (0 = unbounded).
    public let maxCount: Int
    /// What deleting the source does to the destinations.
    public let deleteRule: DeleteRule
    /// The identifier the relationship had in the previous model version.
    public let renamingIdentifier: String?
    /// Free-form `<userInfo>` entries.
    public let userInfo: [String: String]
    /// SHA-256 (hex) of the relationship's structural definition.
    public let versionHash: String
    /// Line of the `<relationship>` element in its file, for diagnostics.
    public let line: Int

    /// Whether the relationship holds at most one destination.
    public var isToOne: Bool { !isToMany }
}

/// What happens to a relationship's destinations when its source object is deleted.
public enum DeleteRule: String, Sendable, Hashable {
    /// Remove the deleted object from each destination's inverse relationship.
    case nullify = "Nullify"
    /// Delete the destinations as well.
    case cascade = "Cascade"
    /// Refuse the deletion while the relationship has any destination.
    case deny = "Deny"
    /// Do nothing; destinations keep dangling references (the application's responsibility).
    case noAction = "No Action"
}
