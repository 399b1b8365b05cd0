import ObjectGraph

/// What decoding a document of one entity reads, worked out once per model rather than
/// once per document: the stored attributes with their side keys, and each relationship's
/// destination and whether a reference's entity has to be told from its document ID.
/// A fetch decodes every row through it, so nothing here is looked up by name per row.
struct EntityDecoding: Sendable {
    /// A stored attribute and the name of its side key (`nil` for types that have none).
    struct Attribute: Sendable {
        let description: AttributeDescription
        let metaKey: String?
        let isAttachment: Bool
    }

    /// A stored relationship and how its references become object IDs.
    struct Relationship: Sendable {
        let name: String
        let destination: String
        /// Whether the destination has sub-entities (a reference may name one of them).
        let destinationHasSubentities: Bool
    }

    let entity: EntityDescription
    let attributes: [Attribute]
    let toOne: [Relationship]
    let toMany: [Relationship]

    init(entity: EntityDescription, model: ObjectModel) {
        self.entity = entity
        attributes = entity.attributes.filter { !$0.isTransient }.map { attribute in
            Attribute(description: attribute,
                      metaKey: AttributeCodec.hasSideKey(attribute.type) ? DocumentLayout.metaKey(attribute.name) : nil,
                      isAttachment: AttributeCodec.isAttachment(attribute.type))
        }
        let relationships = entity.relationships.filter { !$0.isTransient }.map { relationship in
            (relationship.isToMany,
             Relationship(name: relationship.name, destination: relationship.destinationEntityName,
                          destinationHasSubentities: !(model.entity(named: relationship.destinationEntityName)?.subentityNames.isEmpty ?? true)))
        }
        toOne = relationships.filter { !$0.0 }.map(\.1)
        toMany = relationships.filter { $0.0 }.map(\.1)
    }

    /// The object a reference of `relationship` names.
    func objectID(_ reference: String, of relationship: Relationship, model: ObjectModel) -> ObjectID {
        relationship.destinationHasSubentities
            ? DocumentLayout.objectID(forReference: reference, destination: relationship.destination, model: model)
            : ObjectID(entityName: relationship.destination, referenceString: reference)
    }
}
