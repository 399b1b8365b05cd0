import DocumentStore
import Foundation
import ObjectGraph
import DocumentFormat

/// Turns an object's persistent state into a document body (plus attachments) and a stored
/// document back into a row, for one model.
struct ObjectDocumentCodec: Sendable {
    let model: ObjectModel
    /// The password's encryption for attributes the model marks encrypted; `nil` without a
    /// password (their stored values are then kept as they are, and changing one is refused).
    var encryption: AttributeEncryption?
    /// How each entity's documents are decoded, by entity name.
    let decodings: [String: EntityDecoding]

    init(model: ObjectModel, encryption: AttributeEncryption?) {
        self.model = model
        self.encryption = encryption
        decodings = Dictionary(model.entities.map { ($0.name, EntityDecoding(entity: $0, model: model)) }, uniquingKeysWith: { a, _ in a })
    }

    /// A decoded document: the row, its to-many destinations, and its save counter.
    struct Decoded: Sendable {
        var row: RowSnapshot
        var toMany: [String: [ObjectID]]
        var objectVersion: Int
    }

    /// The body and attachment changes of a save of `change`.
    /// - Parameters:
    ///   - objectVersion: the new `CDTISObjectVersion` counter.
    ///   - previousAttachments: attachment names of the revision being replaced (updates).
    ///   - onlyChangedAttachments: write attachments only for changed keys (updates keep the
    ///     parent's attachments otherwise).
    func encode(_ change: ObjectChange, entity: EntityDescription, objectVersion: Int,
                previousAttachments: Set<String>, onlyChangedAttachments: Bool,
                previousBody: JSONObject = [:]) throws -> (JSONObject, [AttachmentChange]) {
        var body: JSONObject = [
            DocumentLayout.entityNameKey: .string(entity.name),
            DocumentLayout.objectVersionKey: .string(String(objectVersion)),
        ]
        var attachments: [AttachmentChange] = []
        for attribute in entity.attributes where !attribute.isTransient {
            let value = change.attributes[attribute.name] ?? .null
            if attribute.isEncrypted {
                // Unchanged ciphertext is kept byte for byte (no password needed, and replicas
                // see no change); a changed value is encrypted with a fresh IV.
                let changed = !onlyChangedAttachments || change.changedKeys.contains(attribute.name)
                if !changed {
                    body[attribute.name] = previousBody[attribute.name]
                } else if value.isNull {
                    body[attribute.name] = .null
                } else if let encryption {
                    body[attribute.name] = try encryption.encrypt(value, attribute: attribute, documentID: change.objectID.referenceString)
                } else {
                    throw EncryptedAttributeError.passwordRequired(documentID: change.objectID.referenceString, attribute: attribute.name)
                }
                continue
            }
            let encoded = AttributeCodec.encode(value, as: attribute)
            if AttributeCodec.isAttachment(attribute.type) {
                let changed = !onlyChangedAttachments || change.changedKeys.contains(attribute.name)
                if !changed && change.attributes[attribute.name] == nil {
                    // Not loaded and not changed: the parent's attachment and side key stay.
                    body[DocumentLayout.metaKey(attribute.name)] = previousBody[DocumentLayout.metaKey(attribute.name)]
                    continue
                }
                if let meta = encoded.meta { body[DocumentLayout.metaKey(attribute.name)] = meta }
                if let attachment = encoded.attachment {
                    if changed { attachments.append(.put(name: attribute.name, contentType: attachment.mimeType, data: attachment.data)) }
                } else if previousAttachments.contains(attribute.name) {
                    attachments.append(.remove(name: attribute.name))
                }
                continue
            }
            body[attribute.name] = encoded.value
            if let meta = encoded.meta { body[DocumentLayout.metaKey(attribute.name)] = meta }
        }
        for relationship in entity.relationships where !relationship.isTransient {
            if relationship.isToMany {
                body[relationship.name] = .array((change.toMany[relationship.name] ?? []).map { .string($0.referenceString) })
            } else {
                body[relationship.name] = change.toOne[relationship.name].map { .string($0.referenceString) } ?? .null
            }
        }
        return (body, attachments)
    }

    /// The entity a stored body belongs to, if the model knows it.
    func entity(of body: JSONObject) -> EntityDescription? {
        body[DocumentLayout.entityNameKey]?.stringValue.flatMap { model.entity(named: $0) }
    }

    /// Decodes a stored revision; `nil` for documents of entities the model does not know.
    /// With `deferAttachments`, binary and transformable values are not read: the row lists
    /// them in ``RowSnapshot/deferredAttributes``.
    /// With `fetched` (a partial fetch's properties), attributes outside it are deferred too
    /// and to-many relationships outside it are left out of ``Decoded/toMany``.
    func decode(_ revision: DocumentRevision, deferAttachments: Bool = false, fetched: Set<String>? = nil,
                attachment: (String) throws -> Data?) throws -> Decoded? {
        guard !revision.deleted, let name = revision.body[DocumentLayout.entityNameKey]?.stringValue,
              let decoding = decodings[name] else { return nil }
        let entity = decoding.entity
        let body = revision.body
        var attributes: [String: AttributeValue] = [:]
        attributes.reserveCapacity(decoding.attributes.count)
        var deferred = Set<String>()
        for item in decoding.attributes {
            let attribute = item.description
            if let fetched, !fetched.contains(attribute.name) {
                deferred.insert(attribute.name)
                continue
            }
            if attribute.isEncrypted {
                // Decrypted only when read (``DocumentIncrementalStore/loadDeferredAttribute``),
                // so listing never pays for it and one bad value fails only its own read.
                if let raw = body[attribute.name], !raw.isNull { deferred.insert(attribute.name) }
                else { attributes[attribute.name] = body[attribute.name] == nil ? attribute.defaultValue : .null }
                continue
            }
            if deferAttachments, item.isAttachment, revision.attachments[attribute.name] != nil {
                deferred.insert(attribute.name)
                continue
            }
            let value = try AttributeCodec.decode(attribute, metaKey: item.metaKey, from: body) { name in
                revision.attachments[name] == nil ? nil : try attachment(name)
            }
            attributes[attribute.name] = value ?? attribute.defaultValue
        }
        var toOne: [String: ObjectID] = [:]
        var toMany: [String: [ObjectID]] = [:]
        for relationship in decoding.toMany {
            if let fetched, !fetched.contains(relationship.name) { continue }
            let references = body[relationship.name]?.arrayValue ?? []
            var ids: [ObjectID] = []
            ids.reserveCapacity(references.count)
            for reference in references {
                if let id = reference.stringValue { ids.append(decoding.objectID(id, of: relationship, model: model)) }
            }
            toMany[relationship.name] = ids
        }
        for relationship in decoding.toOne {
            if let id = body[relationship.name]?.stringValue {
                toOne[relationship.name] = decoding.objectID(id, of: relationship, model: model)
            }
        }
        let objectID = ObjectID(entityName: entity.name, referenceString: revision.id)
        let version = body[DocumentLayout.objectVersionKey]?.stringValue.flatMap { Int($0) }
            ?? body[DocumentLayout.objectVersionKey]?.intValue.map { Int($0) } ?? 0
        return Decoded(row: RowSnapshot(objectID: objectID, attributes: attributes, toOne: toOne, version: RowVersion(revision.rev.description),
                                        deferredAttributes: deferred),
                       toMany: toMany, objectVersion: version)
    }
}
