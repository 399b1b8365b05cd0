import DocumentStore
import Foundation
public import ObjectGraph
import DocumentFormat

/// Changes made elsewhere (a pull, another process), noticed through the changes feed.
extension DocumentIncrementalStore {
    /// The datastore's last changes-feed sequence: every committed document write, by any
    /// process on the file or a replicator, moves it. One look-up at the end of the
    /// sequence index (a few microseconds), so live fetches can poll it.
    public func changeToken() throws -> StoreChangeToken? {
        StoreChangeToken(String(try ds { try reader.lastSequence }))
    }

    /// Looks at the datastore's changes feed for documents written by anything other than
    /// this store instance (a replication pull, another process), drops what it cached about
    /// them, and reports them to the coordinator so contexts refresh. Returns the change set.
    @discardableResult
    public func processExternalChanges() throws -> StoreChangeSet {
        let (changes, notify) = try locked { () -> (StoreChangeSet, (@Sendable (StoreChangeSet) -> Void)?) in
            var set = StoreChangeSet()
            processedSequence = try ds {
                try reader.forEachChange(since: processedSequence, batch: 500) { change in
                    if change.id == DocumentLayout.metadataDocumentID {
                        try adoptReplicatedMetadata()
                        return
                    }
                    if let own = ownRevisions[change.id], change.revisions.first == own, change.revisions.count == 1 { return }
                    toManyCache[change.id] = nil
                    // The entity named in a `CDTIS-<Entity>-<UUID>` ID is the document's own (as
                    // for references, `DocumentLayout.objectID(forReference:…)`), so only other
                    // IDs cost a read of the document: a pull of 180,000 documents would
                    // otherwise read every one of them again here.
                    let objectID: ObjectID?
                    if let name = DocumentLayout.entityName(inDocumentID: change.id), model?.entity(named: name) != nil {
                        objectID = ObjectID(entityName: name, referenceString: change.id)
                    } else if let revision = try ds({ try reader.get(id: change.id) }), let entity = codec?.entity(of: revision.body) {
                        objectID = ObjectID(entityName: entity.name, referenceString: change.id)
                    } else {
                        objectID = nil
                    }
                    guard let objectID else { return }
                    if change.deleted { set.deleted.insert(objectID) } else { set.updated.insert(objectID) }
                }
            }
            return (set, self.observer)
        }
        if !(changes.inserted.isEmpty && changes.updated.isEmpty && changes.deleted.isEmpty) { notify?(changes) }
        return changes
    }
}
