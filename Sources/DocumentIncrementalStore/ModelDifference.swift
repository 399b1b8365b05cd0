import DocumentStore
import ObjectGraph
import DocumentFormat

/// The first way a stored `CDTISMetaData` model description differs from a model, in
/// entity and property terms (version hashes are left out: Core Data computes them
/// differently from us, so a database written by the original app never matches ours).
///
/// Two descriptions with no difference describe the same entities with the same persistent
/// properties, types and relationship destinations, so documents written under one read
/// correctly under the other. That is what lets a store adopt a metadata document another
/// app wrote instead of writing a revision of its own.
public struct ModelDifference: Sendable, Hashable, CustomStringConvertible {
    /// The entity that differs.
    public var entity: String
    /// The property that differs, or `nil` when the whole entity is missing on one side.
    public var property: String?
    /// What differs, in words ("stored as utf8 but the model declares int32").
    public var reason: String

    /// "entity Recipe, property name: stored as utf8 but the model declares int32".
    public var description: String {
        "entity \(entity)" + (property.map { ", property \($0)" } ?? "") + ": \(reason)"
    }

    /// The first difference between `stored` (a metadata document's `objectModel` member)
    /// and `model`, looking at entities in name order and then at their properties in name
    /// order; `nil` when they describe the same entities and properties.
    ///
    /// With `allowingAddedOptionalAttributes`, an optional attribute the model has and the
    /// stored description lacks is no difference: documents written without it read it as
    /// `nil`, and readers that do not know it skip the key (how a newer model version, such as
    /// one adding encrypted notes, stays compatible with another app's older document).
    static func first(between stored: JSONObject, and model: ObjectModel,
                      allowingAddedOptionalAttributes: Bool = false) -> ModelDifference? {
        let names = Set(stored.keys).union(model.entities.map(\.name)).sorted()
        for name in names {
            guard let entity = model.entity(named: name) else {
                return ModelDifference(entity: name, property: nil, reason: "stored, but the model has no such entity")
            }
            guard let description = stored[name]?.objectValue else {
                return ModelDifference(entity: name, property: nil, reason: "in the model, but not in the stored model")
            }
            let properties = description["properties"]?.objectValue ?? [:]
            let modelProperties = entity.attributes.filter { !$0.isTransient }.map(\.name)
                + entity.relationships.filter { !$0.isTransient }.map(\.name)
            for property in Set(properties.keys).union(modelProperties).sorted() {
                guard let declared = ModelMetadataDocument.typeName(of: entity, property: property),
                      modelProperties.contains(property) else {
                    return ModelDifference(entity: name, property: property, reason: "stored, but the model has no such property")
                }
                guard let storedProperty = properties[property]?.objectValue else {
                    if allowingAddedOptionalAttributes, entity.attribute(named: property)?.isOptional == true { continue }
                    return ModelDifference(entity: name, property: property, reason: "in the model, but not in the stored model")
                }
                let storedType = storedProperty["typeName"]?.stringValue ?? "no type"
                if storedType != declared {
                    return ModelDifference(entity: name, property: property, reason: "stored as \(storedType) but the model declares \(declared)")
                }
                if let relationship = entity.relationship(named: property),
                   let destination = storedProperty["destination"]?.stringValue,
                   destination != relationship.destinationEntityName {
                    return ModelDifference(entity: name, property: property,
                                           reason: "stored with destination \(destination) but the model's is \(relationship.destinationEntityName)")
                }
            }
        }
        return nil
    }
}
