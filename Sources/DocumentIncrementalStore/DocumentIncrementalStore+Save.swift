import DocumentStore
import Foundation
public import ObjectGraph
import DocumentFormat

/// Saves: one transaction of document writes for each save request.
extension DocumentIncrementalStore {
    /// Properties whose values differ between a stored row and a baseline.
    static func changedKeys(_ stored: RowSnapshot, _ baseline: RowSnapshot) -> Set<String> {
        baseline.keysChanged(inStoredAttributes: stored.attributes, toOne: stored.toOne)
    }

    /// Writes a context save as one datastore transaction: a document per inserted or updated
    /// object, a tombstone per deleted one. Refuses the whole save with
    /// `IncrementalStoreError.conflicts(_:)` when a document's current revision is not the
    /// one the change was based on.
    public func save(_ request: StoreSaveRequest) throws -> StoreSaveResult {
        try locked {
            let codec = try loadedCodec()
            guard let model else { throw IncrementalStoreError.notLoaded }
            var conflicts: [SaveConflict] = []
            var current: [String: DocumentRevision] = [:]
            func check(_ id: ObjectID, baseline: RowSnapshot?, isDeletion: Bool) throws {
                let revision = try ds { try reader.get(id: id.referenceString) }
                if let revision { current[id.referenceString] = revision }
                guard let base = baseline else {
                    if revision == nil && !isDeletion {
                        conflicts.append(SaveConflict(objectID: id, baselineVersion: nil, storedSnapshot: nil, changedInStore: []))
                    }
                    return
                }
                guard let revision else {
                    if !isDeletion { conflicts.append(SaveConflict(objectID: id, baselineVersion: base.version, storedSnapshot: nil, changedInStore: [])) }
                    return
                }
                if revision.rev.description != base.version.token {
                    let stored = try decode(revision)?.row
                    conflicts.append(SaveConflict(objectID: id, baselineVersion: base.version, storedSnapshot: stored,
                                                  changedInStore: stored.map { Self.changedKeys($0, base) } ?? []))
                }
            }
            for change in request.updated { try check(change.objectID, baseline: change.baseline, isDeletion: false) }
            for deletion in request.deleted { try check(deletion.objectID, baseline: deletion.baseline, isDeletion: true) }
            if !conflicts.isEmpty { throw IncrementalStoreError.conflicts(conflicts) }

            var operations: [DocumentStore.WriteOperation] = []
            var written: [ObjectID] = []
            operations.reserveCapacity(request.inserted.count + request.updated.count + request.deleted.count)
            for change in request.inserted {
                guard let entity = model.entity(named: change.objectID.entityName) else { throw IncrementalStoreError.unknownEntity(change.objectID.entityName) }
                let (body, attachments) = try codec.encode(change, entity: entity, objectVersion: 1, previousAttachments: [], onlyChangedAttachments: false)
                operations.append(.create(id: change.objectID.referenceString, body: body, attachments: attachments))
                written.append(change.objectID)
            }
            for change in request.updated {
                guard let entity = model.entity(named: change.objectID.entityName),
                      let revision = current[change.objectID.referenceString] else { throw IncrementalStoreError.objectNotFound(change.objectID) }
                let previous = revision.body[DocumentLayout.objectVersionKey]?.stringValue.flatMap { Int($0) } ?? 0
                let (body, attachments) = try codec.encode(change, entity: entity, objectVersion: previous + 1,
                                                       previousAttachments: Set(revision.attachments.keys), onlyChangedAttachments: true,
                                                       previousBody: revision.body)
                operations.append(.update(id: change.objectID.referenceString, parent: revision.rev, body: body, attachments: attachments))
                written.append(change.objectID)
            }
            for deletion in request.deleted {
                guard let revision = current[deletion.objectID.referenceString] else { continue }
                operations.append(.delete(id: deletion.objectID.referenceString, parent: revision.rev))
            }
            if !operations.isEmpty && !hasMetadataDocument {
                hasMetadataDocument = try ds { try reader.get(id: DocumentLayout.metadataDocumentID) } != nil
                if !hasMetadataDocument {
                    operations.append(.create(id: DocumentLayout.metadataDocumentID, body: ModelMetadataDocument.body(for: model), attachments: []))
                }
            }
            let revisions: [DocumentRevision]
            do {
                revisions = try writer().write(operations)
                hasMetadataDocument = true
            } catch DocumentStoreError.conflict(let id) where id == DocumentLayout.metadataDocumentID {
                // Written meanwhile by another opener of the file: save without ours.
                hasMetadataDocument = true
                return try save(request)
            } catch DocumentStoreError.conflict(let id) {
                if let inserted = request.inserted.first(where: { $0.objectID.referenceString == id }) {
                    throw IncrementalStoreError.duplicateObject(inserted.objectID)
                }
                // Changed between the check and the write: report it as a conflict.
                let objectID = (request.updated.map(\.objectID) + request.deleted.map(\.objectID)).first { $0.referenceString == id }
                    ?? ObjectID(entityName: DocumentLayout.entityName(inDocumentID: id) ?? "", referenceString: id)
                let stored = try ds { try reader.get(id: id) }.flatMap { try decode($0)?.row }
                throw IncrementalStoreError.conflicts([SaveConflict(objectID: objectID, baselineVersion: nil, storedSnapshot: stored, changedInStore: [])])
            } catch let e as DocumentStoreError {
                throw IncrementalStoreError.storeFailure(e)
            }
            var versions: [ObjectID: RowVersion] = [:]
            for (index, revision) in revisions.enumerated() {
                rememberOwn(revision.rev, of: revision.id)
                if index < written.count {
                    let change = index < request.inserted.count ? request.inserted[index] : request.updated[index - request.inserted.count]
                    versions[written[index]] = RowVersion(revision.rev.description)
                    if change.toMany.isEmpty { toManyCache[revision.id] = nil }
                    else { remember(toMany: change.toMany, of: revision.id, rev: revision.rev.description) }
                } else {
                    toManyCache[revision.id] = nil
                }
            }
            return StoreSaveResult(versions: versions)
        }
    }
}
