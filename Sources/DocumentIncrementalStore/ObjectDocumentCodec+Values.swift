import DocumentStore
import ObjectGraph
import DocumentFormat

extension ObjectDocumentCodec {
    /// What a values fetch (`ObjectContext.fetchValues`) reads of one entity's documents,
    /// worked out once per fetch rather than once per document.
    struct ValuesReading {
        /// The attributes read (`ObjectValues.includes(_:wanted:)`).
        let attributes: [AttributeDescription]
        /// Every to-one relationship (values always carry them), with its destination.
        let toOne: [RelationshipDescription]
        /// The requested to-many relationships.
        let toMany: [RelationshipDescription]
        /// Whether some destination entity has sub-entities, so a reference's entity has to
        /// be told from its document ID.
        let destinationsHaveSubentities: Bool

        /// The reading of `entity` for `wanted` properties (`nil`: all).
        init(entity: EntityDescription, wanted: Set<String>?, model: ObjectModel) {
            attributes = entity.attributes.filter { ObjectValues.includes($0, wanted: wanted) }
            let relationships = entity.relationships.filter { !$0.isTransient }
            toOne = relationships.filter { !$0.isToMany }
            toMany = relationships.filter { $0.isToMany && wanted?.contains($0.name) ?? true }
            destinationsHaveSubentities = relationships.contains { !(model.entity(named: $0.destinationEntityName)?.subentityNames.isEmpty ?? true) }
        }
    }

    /// The values of a live stored revision as `reading` says (non-null attributes only);
    /// `nil` for a deleted one.
    func values(of revision: DocumentRevision, entityName: String, reading: ValuesReading) throws -> ObjectValues? {
        guard !revision.deleted else { return nil }
        let body = revision.body
        var values = ObjectValues(objectID: ObjectID(entityName: entityName, referenceString: revision.id),
                                  attributes: Dictionary(minimumCapacity: reading.attributes.count),
                                  toOne: Dictionary(minimumCapacity: reading.toOne.count),
                                  toMany: Dictionary(minimumCapacity: reading.toMany.count))
        for attribute in reading.attributes {
            let value = try AttributeCodec.decode(attribute, from: body, attachment: { _ in nil }) ?? attribute.defaultValue
            if !value.isNull { values.attributes[attribute.name] = value }
        }
        func objectID(_ reference: String, _ destination: String) -> ObjectID {
            reading.destinationsHaveSubentities
                ? DocumentLayout.objectID(forReference: reference, destination: destination, model: model)
                : ObjectID(entityName: destination, referenceString: reference)
        }
        for relationship in reading.toOne {
            if let reference = body[relationship.name]?.stringValue {
                values.toOne[relationship.name] = objectID(reference, relationship.destinationEntityName)
            }
        }
        for relationship in reading.toMany {
            let references = body[relationship.name]?.arrayValue ?? []
            values.toMany[relationship.name] = references.compactMap { $0.stringValue.map { objectID($0, relationship.destinationEntityName) } }
        }
        return values
    }
}
