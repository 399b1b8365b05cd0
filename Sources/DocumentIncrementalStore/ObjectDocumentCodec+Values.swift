import DocumentStore
import ObjectGraph
import DocumentFormat

extension ObjectDocumentCodec {
    /// What a values fetch (`ObjectContext.fetchValues`) reads of one entity's documents,
    /// worked out once per fetch rather than once per document: the entity's decoding
    /// (``EntityDecoding``) narrowed to the requested properties.
    struct ValuesReading {
        /// The attributes read (`ObjectValues.includes(_:wanted:)`).
        let attributes: [EntityDecoding.Attribute]
        /// Every to-one relationship (values always carry them).
        let toOne: [EntityDecoding.Relationship]
        /// The requested to-many relationships.
        let toMany: [EntityDecoding.Relationship]
        /// How references become object IDs.
        let decoding: EntityDecoding
    }

    /// The reading of entity `name`'s documents for `wanted` properties (`nil`: all);
    /// `nil` when the model has no such entity.
    func valuesReading(entityName name: String, wanted: Set<String>?) -> ValuesReading? {
        guard let decoding = decodings[name] else { return nil }
        return ValuesReading(attributes: decoding.attributes.filter { ObjectValues.includes($0.description, wanted: wanted) },
                             toOne: decoding.toOne,
                             toMany: decoding.toMany.filter { wanted?.contains($0.name) ?? true },
                             decoding: decoding)
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
            let value = try AttributeCodec.decode(attribute.description, metaKey: attribute.metaKey, from: body, attachment: { _ in nil })
                ?? attribute.description.defaultValue
            if !value.isNull { values.attributes[attribute.description.name] = value }
        }
        for relationship in reading.toOne {
            if let reference = body[relationship.name]?.stringValue {
                values.toOne[relationship.name] = reading.decoding.objectID(reference, of: relationship, model: model)
            }
        }
        for relationship in reading.toMany {
            let references = body[relationship.name]?.arrayValue ?? []
            values.toMany[relationship.name] = references.compactMap {
                $0.stringValue.map { reading.decoding.objectID($0, of: relationship, model: model) }
            }
        }
        return values
    }
}
