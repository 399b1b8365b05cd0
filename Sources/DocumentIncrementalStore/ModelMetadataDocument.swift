import DocumentStore
import Foundation
import ObjectGraph

/// The content of the replicated `CDTISMetaData` document: for each entity its version hash
/// and properties (`typeName`, `versionHash`, `destination` for relationships).
///
/// It is a pure function of the model, so every machine with the same model writes the same
/// body and therefore the same revision ID: the document never conflicts.
enum ModelMetadataDocument {
    /// The body describing `model`.
    static func body(for model: ObjectModel) -> JSONObject {
        var entities: JSONObject = [:]
        for entity in model.entities {
            var properties: JSONObject = [:]
            for attribute in entity.attributes where !attribute.isTransient {
                properties[attribute.name] = [
                    "typeName": .string(AttributeCodec.typeName(attribute.type)),
                    "versionHash": .string(attribute.versionHash),
                ]
            }
            for relationship in entity.relationships where !relationship.isTransient {
                properties[relationship.name] = [
                    "typeName": .string(relationship.isToMany ? "relation-to-many" : "relation-to-one"),
                    "versionHash": .string(relationship.versionHash),
                    "destination": .string(relationship.destinationEntityName),
                ]
            }
            entities[entity.name] = ["versionHash": .string(entity.versionHash), "properties": .object(properties)]
        }
        return ["objectModel": .object(entities)]
    }

    /// The `typeName` of a model property, as the metadata document writes it.
    static func typeName(of entity: EntityDescription, property name: String) -> String? {
        if let a = entity.attribute(named: name) { return AttributeCodec.typeName(a.type) }
        if let r = entity.relationship(named: name) { return r.isToMany ? "relation-to-many" : "relation-to-one" }
        return nil
    }
}
