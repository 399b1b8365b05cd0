import DocumentStore
import Foundation
import ObjectGraph
import DocumentFormat

/// The content of the replicated `CDTISMetaData` document: for each entity its version hash
/// and properties (`typeName`, `versionHash`, `destination` for relationships).
///
/// It is a pure function of the model, so every machine with the same model writes the same
/// body and therefore the same revision ID: the document never conflicts. A document another
/// app wrote (the original incremental store adds a `metaData` member and Core Data's own
/// hashes) is adopted as it is when it describes the same entities and properties.
enum ModelMetadataDocument {
    /// The member the original incremental store keeps its store metadata in (`NSStoreType`,
    /// `NSStoreUUID`, `NSStoreModelVersionHashes`); our documents never have it.
    static let storeMetadataKey = "metaData"

    /// What opening a store with `model` does about its metadata document `body`: `nil`
    /// when the document stays as it is (it is ours, or it describes the same entities and
    /// properties and is adopted), or the migration to run before ours replaces it (our own
    /// program wrote it for another model version).
    /// - Throws: ``DocumentIncrementalStoreError/foreignModel(_:)`` when another app wrote it
    ///   for a different model, ``DocumentIncrementalStoreError/invalidMetadata(_:)`` when it
    ///   has no `objectModel`, ``DocumentIncrementalStoreError/incompatibleModel(entity:property:reason:)``
    ///   when our older model cannot be migrated.
    static func migration(opening body: JSONObject, with model: ObjectModel) throws -> ModelMigration? {
        if body == Self.body(for: model) { return nil }
        guard let stored = body["objectModel"]?.objectValue else {
            throw DocumentIncrementalStoreError.invalidMetadata("no objectModel member")
        }
        if body[storeMetadataKey] != nil {
            // Another app's document: adopted when our model only adds optional attributes.
            guard let difference = ModelDifference.first(between: stored, and: model, allowingAddedOptionalAttributes: true) else { return nil }
            throw DocumentIncrementalStoreError.foreignModel(difference)
        }
        guard ModelDifference.first(between: stored, and: model) != nil else { return nil }
        return try ModelMigration.plan(from: stored, to: model)
    }

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
