/// One entity of a model: its attributes and relationships (inherited ones included),
/// its place in the entity hierarchy, and its version hash.
public final class EntityDescription: Sendable, Hashable, CustomStringConvertible {
    /// The entity's name, unique in its model.
    public let name: String
    /// Abstract entities cannot be inserted; only their sub-entities can.
    public let isAbstract: Bool
    /// The parent entity's name, if any.
    public let superentityName: String?
    /// Names of the direct sub-entities.
    public let subentityNames: [String]
    /// All attributes, inherited first then declared, in declaration order.
    public let attributes: [AttributeDescription]
    /// All relationships, inherited first then declared, in declaration order.
    public let relationships: [RelationshipDescription]
    /// Fetch indexes declared on this entity.
    public let fetchIndexes: [FetchIndexDescription]
    /// The identifier the entity had in the previous model version.
    public let renamingIdentifier: String?
    /// Free-form `<userInfo>` entries.
    public let userInfo: [String: String]
    /// SHA-256 (hex) over the entity's name, hierarchy and property hashes.
    public let versionHash: String
    /// Line of the `<entity>` element in its file.
    public let line: Int

    private let attributesByName: [String: AttributeDescription]
    private let relationshipsByName: [String: RelationshipDescription]

    init(name: String, isAbstract: Bool, superentityName: String?, subentityNames: [String],
         attributes: [AttributeDescription], relationships: [RelationshipDescription],
         fetchIndexes: [FetchIndexDescription], renamingIdentifier: String?,
         userInfo: [String: String], versionHash: String, line: Int) {
        self.name = name
        self.isAbstract = isAbstract
        self.superentityName = superentityName
        self.subentityNames = subentityNames
        self.attributes = attributes
        self.relationships = relationships
        self.fetchIndexes = fetchIndexes
        self.renamingIdentifier = renamingIdentifier
        self.userInfo = userInfo
        self.versionHash = versionHash
        self.line = line
        self.attributesByName = Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        self.relationshipsByName = Dictionary(relationships.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The attribute called `name`, if the entity has one.
    public func attribute(named name: String) -> AttributeDescription? { attributesByName[name] }
    /// The relationship called `name`, if the entity has one.
    public func relationship(named name: String) -> RelationshipDescription? { relationshipsByName[name] }
    /// Names of all properties (attributes then relationships).
    public var propertyNames: [String] { attributes.map(\.name) + relationships.map(\.name) }

    /// Entities are identified by name and hash (a model never holds two of the same name).
    public static func == (lhs: EntityDescription, rhs: EntityDescription) -> Bool {
        lhs.name == rhs.name && lhs.versionHash == rhs.versionHash
    }
    /// Hashes the name and version hash.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(versionHash)
    }
    /// The entity's name.
    public var description: String { name }
}

/// A `<fetchIndex>` declared on an entity: a compound index stores may build.
public struct FetchIndexDescription: Sendable, Hashable {
    /// One property of the index with its direction.
    public struct Element: Sendable, Hashable {
        /// The indexed property's name.
        public let property: String
        /// Whether the index orders this property ascending.
        public let ascending: Bool
    }
    /// The index's name.
    public let name: String
    /// The indexed properties, most significant first.
    public let elements: [Element]
}
