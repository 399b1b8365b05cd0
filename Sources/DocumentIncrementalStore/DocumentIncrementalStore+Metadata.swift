import DocumentStore
import ObjectGraph

extension DocumentIncrementalStore {
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
            let leaves = try ds { try documentStore.leafRevisions(id: id) }.filter { !$0.deleted }
            guard !leaves.isEmpty else { return }
            hasMetadataDocument = true
            let ours = ModelMetadataDocument.body(for: model)
            let theirs = leaves.filter { $0.body != ours }
            guard !theirs.isEmpty else { return }
            for leaf in theirs {
                guard let stored = leaf.body["objectModel"]?.objectValue else {
                    throw DocumentIncrementalStoreError.invalidMetadata("revision \(leaf.rev) has no objectModel member")
                }
                let foreign = leaf.body[ModelMetadataDocument.storeMetadataKey] != nil
                guard let difference = ModelDifference.first(between: stored, and: model, allowingAddedOptionalAttributes: foreign) else { continue }
                if foreign {
                    throw DocumentIncrementalStoreError.foreignModel(difference)
                }
                return   // another model version of ours: the next open migrates it, as it always has
            }
            let mine = leaves.filter { $0.body == ours }
            guard !mine.isEmpty else { return }
            _ = try ds { try documentStore.write(mine.map { .delete(id: id, parent: $0.rev) }) }
        }
    }
}
