import DocumentStore
import Foundation
public import ObjectGraph
import DocumentFormat

/// Reads: snapshots of objects, deferred attributes, to-many destinations and IDs.
extension DocumentIncrementalStore {
    /// Decodes a winner into a row; with `fetched` (a partial fetch), the attributes outside
    /// it are deferred and its to-many lists are not cached (they may be incomplete).
    func decode(_ revision: DocumentRevision, fetched: Set<String>? = nil) throws -> ObjectDocumentCodec.Decoded? {
        let codec = try loadedCodec()
        let decoded = try codec.decode(revision, deferAttachments: true, fetched: fetched) { name in
            try reader.attachment(id: revision.id, rev: revision.rev, name: name)?.data
        }
        if let decoded, fetched == nil, !decoded.toMany.isEmpty {
            remember(toMany: decoded.toMany, of: revision.id, rev: decoded.row.version.token)
        }
        return decoded
    }

    /// Remembers `rev` as this instance's latest write of document `id`. When the map is
    /// full it starts afresh: the instance then no longer knows its older writes as its own,
    /// exactly as after reopening the store (every process starts with none). Such a write
    /// seen in the changes feed is reported as an external change (contexts refresh the
    /// object, which is already current).
    func rememberOwn(_ rev: RevisionID, of id: String) {
        if ownRevisions.count >= ownRevisionsLimit, ownRevisions[id] == nil { ownRevisions.removeAll(keepingCapacity: true) }
        ownRevisions[id] = rev
    }

    /// Caches the to-many lists of one document revision, starting the cache afresh when it
    /// is full (a miss only costs reading the document again).
    func remember(toMany: [String: [ObjectID]], of id: String, rev: String) {
        if toManyCache.count >= toManyCacheLimit, toManyCache[id] == nil { toManyCache.removeAll(keepingCapacity: true) }
        toManyCache[id] = (rev, toMany)
    }

    /// The current row of an object from its winning revision (binary values deferred).
    public func snapshot(for objectID: ObjectID) throws -> RowSnapshot? {
        try locked {
            guard let revision = try ds({ try reader.get(id: objectID.referenceString) }),
                  let decoded = try decode(revision), decoded.row.objectID.entityName == objectID.entityName else { return nil }
            return decoded.row
        }
    }

    /// Reads a value the row left deferred: a binary or transformable value from the revision
    /// the row was read at (or the current one, if that revision's attachments were compacted
    /// away); any other attribute a partial fetch left out, from that revision's body.
    public func loadDeferredAttribute(_ name: String, of objectID: ObjectID, version: RowVersion) throws -> AttributeValue {
        try locked {
            guard let model, let attribute = model.entity(named: objectID.entityName)?.attribute(named: name) else { return .null }
            let id = objectID.referenceString
            if attribute.isEncrypted {
                guard let rev = RevisionID(version.token), let revision = try ds({ try reader.get(id: id, rev: rev) })
                        ?? ds({ try reader.get(id: id) }) else {
                    throw IncrementalStoreError.objectNotFound(objectID)
                }
                guard let stored = revision.body[name]?.stringValue else { return .null }
                return try AttributeEncryption.decrypt(stored, attribute: attribute, documentID: id, with: encryption)
            }
            if !AttributeCodec.isAttachment(attribute.type) {
                // A value a partial fetch left out: read from the body of the same revision.
                // Without it the value is unknown, never taken as null (a save writes it back).
                guard let rev = RevisionID(version.token), let revision = try ds({ try reader.get(id: id, rev: rev) }) else {
                    throw IncrementalStoreError.objectNotFound(objectID)
                }
                return try AttributeCodec.decode(attribute, from: revision.body) { _ in nil } ?? attribute.defaultValue
            }
            let found = try ds { try reader.attachment(id: id, rev: RevisionID(version.token), name: name) }
                ?? ds { try reader.attachment(id: id, name: name) }
            guard let data = found?.data else { return .null }
            return attribute.type == .transformable ? .transformable(data) : .data(data)
        }
    }

    /// The current rows of several objects, read together (one datastore read per thousand);
    /// missing ones are left out.
    public func snapshots(for objectIDs: [ObjectID]) throws -> [RowSnapshot] {
        try locked {
            var rows: [RowSnapshot] = []
            var start = 0
            while start < objectIDs.count {
                let slice = objectIDs[start..<min(objectIDs.count, start + 1000)]
                let wanted = Dictionary(slice.map { ($0.referenceString, $0.entityName) }, uniquingKeysWith: { first, _ in first })
                for revision in try ds({ try reader.documents(withIDs: Array(wanted.keys)) }) {
                    guard let decoded = try decode(revision), decoded.row.objectID.entityName == wanted[revision.id] else { continue }
                    rows.append(decoded.row)
                }
                start += 1000
            }
            return rows
        }
    }

    /// The document IDs stored in a to-many relationship's array, in order.
    public func toManyDestinations(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        try locked {
            if let cached = toManyCache[objectID.referenceString] { return cached.toMany[relationship] ?? [] }
            guard let revision = try ds({ try reader.get(id: objectID.referenceString) }),
                  let decoded = try decode(revision) else { throw IncrementalStoreError.objectNotFound(objectID) }
            return decoded.toMany[relationship] ?? []
        }
    }

    /// New document IDs `CDTIS-<Entity>-<UUID>` for inserted objects.
    public func obtainPermanentIDs(for temporaryIDs: [ObjectID]) throws -> [ObjectID] {
        temporaryIDs.map { ObjectID(entityName: $0.entityName, referenceString: DocumentLayout.newDocumentID(entityName: $0.entityName)) }
    }

    /// Runs `body` inside one datastore transaction (`DocumentStore.inTransaction(_:)`):
    /// every save made meanwhile commits with it or not at all. After a failure the cached
    /// to-many lists are dropped, since some came from saves that were undone. Other threads'
    /// operations on this store wait until it ends.
    public func performAtomically<T>(_ body: () throws -> T) throws -> T {
        do {
            return try locked {
                if held != nil { throw DocumentStoreError.storage("a transaction is already open on this store; finish it first") }
                return try documentStore.inTransaction { transaction in try holding(.writer(transaction), body) }
            }
        } catch let e as DocumentStoreError {
            locked { toManyCache = [:] }
            throw IncrementalStoreError.storeFailure(e)
        } catch {
            locked { toManyCache = [:] }
            throw error
        }
    }

    /// Sets the callback ``processExternalChanges()`` reports to.
    public func setChangeObserver(_ observer: (@Sendable (StoreChangeSet) -> Void)?) {
        locked { self.observer = observer }
    }
}
