import DocumentStore
import Foundation
import ObjectGraph
import DocumentFormat

/// Lightweight migration from the model described by a stored `CDTISMetaData` document to
/// the current model: added attributes (optional or with a default), removed properties,
/// entities and properties renamed through the model's renaming identifiers. Anything else
/// (a property whose type changed, a new required property without default) is refused.
struct ModelMigration {
    /// Old entity name → new entity name, for renamed entities.
    var entityRenames: [String: String] = [:]
    /// New entity name → (old property name → new property name), for renamed properties.
    var propertyRenames: [String: [String: String]] = [:]

    /// Whether documents must be rewritten.
    var rewritesDocuments: Bool { !entityRenames.isEmpty || propertyRenames.values.contains { !$0.isEmpty } }

    /// Plans the migration from `stored` (the `objectModel` member) to `model`.
    /// - Throws: ``DocumentIncrementalStoreError/incompatibleModel(entity:property:reason:)``.
    static func plan(from stored: JSONObject, to model: ObjectModel) throws -> ModelMigration {
        var migration = ModelMigration()
        var matchedEntities = Set<String>()
        for oldName in stored.keys.sorted() {
            guard let description = stored[oldName]?.objectValue,
                  let properties = description["properties"]?.objectValue else {
                throw DocumentIncrementalStoreError.invalidMetadata("entity \(oldName) has no properties object")
            }
            let target = model.entity(named: oldName)
                ?? model.entities.first { $0.renamingIdentifier == oldName }
            guard let entity = target else { continue }   // removed entity: its documents are skipped
            matchedEntities.insert(entity.name)
            if entity.name != oldName { migration.entityRenames[oldName] = entity.name }
            var matched = Set<String>()
            var renames: [String: String] = [:]
            for oldProperty in properties.keys.sorted() {
                let storedType = properties[oldProperty]?.objectValue?["typeName"]?.stringValue ?? ""
                let newName: String?
                if ModelMetadataDocument.typeName(of: entity, property: oldProperty) != nil {
                    newName = oldProperty
                } else {
                    newName = entity.attributes.first { $0.renamingIdentifier == oldProperty }?.name
                        ?? entity.relationships.first { $0.renamingIdentifier == oldProperty }?.name
                }
                guard let newName else { continue }   // removed property: ignored on read
                let newType = ModelMetadataDocument.typeName(of: entity, property: newName) ?? ""
                guard newType == storedType else {
                    throw DocumentIncrementalStoreError.incompatibleModel(
                        entity: entity.name, property: newName,
                        reason: "stored as \(storedType) but the model declares \(newType)")
                }
                matched.insert(newName)
                if newName != oldProperty { renames[oldProperty] = newName }
            }
            migration.propertyRenames[entity.name] = renames
            for attribute in entity.attributes where !attribute.isTransient && !matched.contains(attribute.name) {
                if !attribute.isOptional && attribute.defaultValue.isNull {
                    throw DocumentIncrementalStoreError.incompatibleModel(
                        entity: entity.name, property: attribute.name,
                        reason: "added as a required attribute without a default value")
                }
            }
            for relationship in entity.relationships where !relationship.isTransient && !matched.contains(relationship.name) {
                if !relationship.isOptional {
                    throw DocumentIncrementalStoreError.incompatibleModel(
                        entity: entity.name, property: relationship.name,
                        reason: "added as a required relationship")
                }
            }
        }
        return migration
    }

    /// Rewrites the documents of renamed entities and properties, all in one transaction.
    func apply(to store: some DocumentStoreWriting) throws {
        guard rewritesDocuments else { return }
        var operations: [DocumentStore.WriteOperation] = []
        var oldNames: [String: String] = [:]   // old entity name → new
        for (newEntity, renames) in propertyRenames where !renames.isEmpty { oldNames[newEntity] = newEntity }
        for (old, new) in entityRenames { oldNames[old] = new }
        for (oldEntity, newEntity) in oldNames.sorted(by: { $0.key < $1.key }) {
            let renames = propertyRenames[newEntity] ?? [:]
            let docs = try store.find(Query(selector: [DocumentLayout.entityNameKey: .string(oldEntity)]))
            for doc in docs {
                var body = doc.body
                body[DocumentLayout.entityNameKey] = .string(newEntity)
                var attachments: [AttachmentChange] = []
                for (old, new) in renames {
                    if let value = body.removeValue(forKey: old) { body[new] = value }
                    if let meta = body.removeValue(forKey: DocumentLayout.metaKey(old)) { body[DocumentLayout.metaKey(new)] = meta }
                    if doc.attachments[old] != nil, let (info, data) = try store.attachment(id: doc.id, rev: doc.rev, name: old) {
                        attachments.append(.remove(name: old))
                        attachments.append(.put(name: new, contentType: info.contentType, data: data))
                    }
                }
                operations.append(.update(id: doc.id, parent: doc.rev, body: body, attachments: attachments))
            }
        }
        if !operations.isEmpty { try store.write(operations) }
    }
}
