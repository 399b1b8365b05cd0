public import DocumentStore
import Foundation
public import ObjectGraph
public import DocumentFormat

extension DocumentIncrementalStore {
    /// Opens the store for `model`: adopts the `CDTISMetaData` document when it describes
    /// this model (ours, or another app's in the original layout: it is left alone, so
    /// replicas never get a conflicting revision of it), migrates a store written with an
    /// older model of ours, keeps per-store state in a local document, and declares the
    /// indexes the model asks for. A store without the document gets ours with its first
    /// save, so a pull that brings another app's document first leaves nothing to conflict.
    /// - Throws: ``DocumentIncrementalStoreError/foreignModel(_:)`` or
    ///   ``DocumentIncrementalStoreError/incompatibleModel(entity:property:reason:)``.
    public func loadMetadata(for model: ObjectModel) throws -> StoreMetadata {
        try locked {
            do {
                hasMetadataDocument = false
                if let existing = try reader.get(id: DocumentLayout.metadataDocumentID) {
                    if let migration = try ModelMetadataDocument.migration(opening: existing.body, with: model) {
                        try migration.apply(to: writer())
                        try writer().update(id: DocumentLayout.metadataDocumentID, parent: existing.rev,
                                                 body: ModelMetadataDocument.body(for: model))
                    }
                    hasMetadataDocument = true
                }
                var local = try reader.getLocal(id: DocumentLayout.localStateDocumentID) ?? [:]
                let stored = local
                if local["storeUUID"]?.stringValue == nil { local["storeUUID"] = .string(UUID().uuidString) }
                local["modelVersionHash"] = .string(model.versionHash)
                // A store opened again with the same model is only read: no write, no fsync.
                if local != stored { try writer().putLocal(id: DocumentLayout.localStateDocumentID, body: local) }
                self.model = model
                try ModelIndexes.refuseEncryptedIndexes(in: model)
                self.codec = ObjectDocumentCodec(model: model, encryption: encryption)
                try ModelIndexes(model: model).apply(to: writer())
                processedSequence = try reader.lastSequence
                return StoreMetadata(storeIdentifier: local["storeUUID"]!.stringValue!, modelVersionHash: model.versionHash,
                                     entityVersionHashes: model.entityVersionHashes,
                                     extra: ["datastoreID": documentStore.storeID])
            } catch let e as DocumentStoreError {
                throw DocumentIncrementalStoreError.datastore(e)
            }
        }
    }

    /// Declares the indexes the loaded model asks for (`ModelIndexes`) in another datastore,
    /// so a benchmark can compare the adapter against direct writes with the same indexes.
    public func declareModelIndexes(in other: DocumentStore) throws {
        guard let model = locked({ self.model }) else {
            throw IncrementalStoreError.notLoaded
        }
        try ModelIndexes(model: model).apply(to: other)
    }

    /// Settles the `CDTISMetaData` document after revisions arrived from elsewhere (a pull):
    /// one written by another app for this model is adopted as it is, and when this store
    /// had already written its own revision, ours is deleted so the other app's stays the
    /// only live revision on every replica (no `_conflicts` once they sync). Runs before a
    /// push (conflict resolution) and whenever external changes are processed.
    /// - Throws: ``DocumentIncrementalStoreError/foreignModel(_:)`` when another app's
    ///   document describes a different model, ``DocumentIncrementalStoreError/invalidMetadata(_:)``
    ///   when a revision has no `objectModel`.
    public func adoptReplicatedMetadata() throws {
        try locked {
            guard let model else { return }
            let id = DocumentLayout.metadataDocumentID
            let leaves = try ds { try reader.leafRevisions(id: id) }.filter { !$0.deleted }
            guard !leaves.isEmpty else { return }
            hasMetadataDocument = true
            let ours = ModelMetadataDocument.body(for: model)
            let theirs = leaves.filter { $0.body != ours }
            guard !theirs.isEmpty else { return }
            // Another model version of ours: the next open migrates it, as it always has.
            guard try Self.describeThisModel(theirs.map { ($0.rev.description, $0.body) }, model: model) else { return }
            let mine = leaves.filter { $0.body == ours }
            guard !mine.isEmpty else { return }
            _ = try ds { try writer().write(mine.map { .delete(id: id, parent: $0.rev) }) }
        }
    }

    /// Refuses, before they are stored, `CDTISMetaData` revisions (their bodies, by revision)
    /// that another app wrote for a different model: a store holding one could no longer be
    /// opened with this model. Revisions written for this model, or for another version of it
    /// (which opening migrates), pass.
    /// - Throws: ``DocumentIncrementalStoreError/foreignModel(_:)`` or
    ///   ``DocumentIncrementalStoreError/invalidMetadata(_:)``, as ``adoptReplicatedMetadata()``.
    public func checkIncomingMetadata(_ revisions: [(rev: String, body: JSONObject)]) throws {
        guard let model = locked({ self.model }) else { return }
        let ours = ModelMetadataDocument.body(for: model)
        _ = try Self.describeThisModel(revisions.filter { $0.body != ours }, model: model)
    }

    /// Whether every metadata body describes this model exactly (`false`: one describes
    /// another version of our own model); throws for another app's different model or a body
    /// without an `objectModel`.
    static func describeThisModel(_ revisions: [(rev: String, body: JSONObject)], model: ObjectModel) throws -> Bool {
        for (rev, body) in revisions {
            guard let stored = body["objectModel"]?.objectValue else {
                throw DocumentIncrementalStoreError.invalidMetadata("revision \(rev) has no objectModel member")
            }
            let foreign = body[ModelMetadataDocument.storeMetadataKey] != nil
            guard let difference = ModelDifference.first(between: stored, and: model, allowingAddedOptionalAttributes: foreign) else { continue }
            if foreign { throw DocumentIncrementalStoreError.foreignModel(difference) }
            return false
        }
        return true
    }
}
