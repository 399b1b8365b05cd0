import DocumentStore
import Foundation
public import ObjectGraph
import DocumentFormat

extension DocumentIncrementalStore {
    /// One attribute or to-one relationship of a revision as `ReplicaMerge` compares it:
    /// the raw body value, its side key and its attachment's digest (so ciphertext and
    /// attachments merge without being decrypted or read).
    private struct StoredProperty: Equatable, Sendable {
        var value: JSONValue? = nil
        var meta: JSONValue? = nil
        var digest: String? = nil
    }

    /// Every document with conflicting live revisions, as rows: the winner is the revision
    /// the datastore serves (CouchDB's deterministic choice), the others in its leaf order.
    public func replicaConflicts() throws -> [ReplicaConflict] {
        try locked {
            // The store flags conflicted documents in every write, so only those are read
            // (a walk of the changes feed cost every sync a pass over the whole store).
            var result: [ReplicaConflict] = []
            for id in try ds({ try reader.conflictedDocumentIDs() }) {
                if let conflict = try conflict(id: id) { result.append(conflict) }
            }
            return result.sorted { $0.objectID < $1.objectID }
        }
    }

    private func conflict(id: String) throws -> ReplicaConflict? {
        let leaves = try ds { try reader.leafRevisions(id: id) }.filter { !$0.deleted }
        guard leaves.count > 1, let winner = try decode(leaves[0]) else { return nil }
        var others: [RowSnapshot] = []
        for leaf in leaves.dropFirst() {
            if let row = try decode(leaf)?.row { others.append(row) }
        }
        guard !others.isEmpty else { return nil }
        var differing = Set<String>()
        for other in others { differing.formUnion(Self.changedKeys(other, winner.row)) }
        for leaf in leaves.dropFirst() {
            for key in Set(leaf.body.keys).union(leaves[0].body.keys) where leaf.body[key] != leaves[0].body[key]
                && key != DocumentLayout.objectVersionKey && !key.hasPrefix(DocumentLayout.metaPrefix) {
                differing.insert(key)
            }
        }
        return ReplicaConflict(objectID: winner.row.objectID, winner: winner.row, others: others,
                               localVersion: try localLeaf(id: id, leaves: leaves).map { RowVersion($0.rev.description) },
                               conflictingProperties: differing)
    }

    /// The leaf written by (or descending from) this store file's newest local edit of the
    /// document, by any process, before or after a relaunch (the datastore records which
    /// revisions local edits made; ``DocumentStore/latestLocalRevision(id:)``). When that edit is
    /// an ancestor of every leaf (the branches forked after it), the winner is returned, so
    /// "local wins" keeps what the store serves.
    private func localLeaf(id: String, leaves: [DocumentRevision]) throws -> DocumentRevision? {
        guard let own = try ds({ try reader.latestLocalRevision(id: id) }) else { return nil }
        for leaf in leaves {
            if leaf.rev == own { return leaf }
            if try ds({ try reader.history(id: id, rev: leaf.rev) }).contains(own) { return leaf }
        }
        return nil
    }

    /// The newest revision both leaves descend from that still has its body.
    private func commonAncestor(id: String, _ a: RevisionID, _ b: RevisionID) throws -> DocumentRevision? {
        let left = try ds { try reader.history(id: id, rev: a) }
        let right = Set(try ds { try reader.history(id: id, rev: b) })
        for rev in left.dropFirst() where right.contains(rev) {
            return try ds { try reader.get(id: id, rev: rev) }
        }
        return nil
    }

    /// Resolves every replica conflict as `policy` decides, with the values
    /// `ReplicaMerge.resolve(_:winner:others:)` gives (the rule every store shares): first
    /// takes every decision, then writes each merged row as a child of its winner and deletes
    /// the other leaves, all in one datastore transaction (``performAtomically(_:)``), so a failure leaves every
    /// conflict as it was. Then reports the objects to the coordinator so contexts refresh.
    /// A `CDTISMetaData` document another app wrote is adopted first (see
    /// ``processExternalChanges()``), so our own model document never stays in conflict.
    @discardableResult
    public func resolveReplicaConflicts(policy: ReplicaMergePolicy) throws -> [ObjectID] {
        try adoptReplicatedMetadata()
        let decisions = try replicaConflicts().map { ($0, try policy.resolution(for: $0)) }
        guard !decisions.isEmpty else { return [] }
        let saved = locked { ownRevisions }
        do {
            try performAtomically {
                for (conflict, resolution) in decisions { try locked { try resolve(conflict, resolution) } }
            }
        } catch {
            locked { ownRevisions = saved }
            throw error
        }
        try processExternalChanges()
        return decisions.map(\.0.objectID)
    }

    private func resolve(_ conflict: ReplicaConflict, _ resolution: ReplicaResolution) throws {
        let id = conflict.objectID.referenceString
        let leaves = try ds { try reader.leafRevisions(id: id) }.filter { !$0.deleted }
        guard leaves.count > 1, let model, let entity = model.entity(named: conflict.objectID.entityName) else { return }
        let winner = leaves[0]
        var body = winner.body
        var attachments: [AttachmentChange] = []

        /// Copies property `name` (value, side key, attachment) from `source` into the result.
        func take(_ name: String, from source: DocumentRevision) throws {
            body[name] = source.body[name]
            body[DocumentLayout.metaKey(name)] = source.body[DocumentLayout.metaKey(name)]
            if entity.attribute(named: name).map({ AttributeCodec.isAttachment($0.type) }) == true {
                if source.attachments[name] != nil, let (info, data) = try ds({ try reader.attachment(id: id, rev: source.rev, name: name) }) {
                    attachments.append(.put(name: name, contentType: info.contentType, data: data))
                } else if winner.attachments[name] != nil {
                    attachments.append(.remove(name: name))
                }
            }
        }
        let toManyNames = Set(entity.relationships.filter(\.isToMany).map(\.name))
        let destinations = Dictionary(uniqueKeysWithValues: entity.relationships.map { ($0.name, $0.destinationEntityName) })
        /// A revision's values as `ReplicaMerge` compares them: each property's raw value,
        /// side key and attachment digest, and each to-many relationship's destinations.
        func properties(_ revision: DocumentRevision) -> ReplicaMerge.Properties<StoredProperty> {
            var values: [String: StoredProperty] = [:]
            var toMany: [String: [ObjectID]] = [:]
            for name in entity.propertyNames {
                if toManyNames.contains(name) {
                    let references = revision.body[name]?.arrayValue?.compactMap(\.stringValue) ?? []
                    toMany[name] = references.map { ObjectID(entityName: destinations[name] ?? "", referenceString: $0) }
                } else {
                    let property = StoredProperty(value: revision.body[name], meta: revision.body[DocumentLayout.metaKey(name)],
                                                  digest: revision.attachments[name]?.digest)
                    if property != StoredProperty() { values[name] = property }
                }
            }
            return ReplicaMerge.Properties(values: values, toMany: toMany)
        }

        // The rule itself is ReplicaMerge's; this store only reads the versions and writes
        // the result as a child of the winner.
        let winnerProperties = properties(winner)
        var others: [(revision: DocumentRevision, version: ReplicaMerge.Version<StoredProperty>)] = []
        for loser in leaves.dropFirst() {
            let base = try commonAncestor(id: id, winner.rev, loser.rev)
            others.append((loser, ReplicaMerge.Version(version: RowVersion(loser.rev.description), properties: properties(loser),
                                                       base: base.map(properties))))
        }
        let merged = ReplicaMerge.resolve(resolution, winner: ReplicaMerge.Version(version: RowVersion(winner.rev.description),
                                                                                   properties: winnerProperties, base: nil),
                                          others: others.map(\.version))
        for name in entity.propertyNames {
            if toManyNames.contains(name) {
                let mergedDestinations = merged.toMany[name] ?? []
                if mergedDestinations != winnerProperties.toMany[name] ?? [] {
                    body[name] = .array(mergedDestinations.map { .string($0.referenceString) })
                }
            } else if merged.values[name] != winnerProperties.values[name],
                      let source = others.first(where: { $0.version.properties.values[name] == merged.values[name] }) {
                // The merged value is one of the other versions': copied with its attachment.
                try take(name, from: source.revision)
            }
        }

        if case .merged(let values) = resolution {
            for (name, value) in values {
                guard let attribute = entity.attribute(named: name) else { continue }
                if attribute.isEncrypted {
                    // Ciphertext needs the password to be written anew; without it the
                    // winner's value stays.
                    if let encryption = codec?.encryption { body[name] = try encryption.encrypt(value, attribute: attribute, documentID: id) }
                    continue
                }
                let encoded = AttributeCodec.encode(value, as: attribute)
                if AttributeCodec.isAttachment(attribute.type) {
                    body[DocumentLayout.metaKey(name)] = encoded.meta
                    if let a = encoded.attachment { attachments.append(.put(name: name, contentType: a.mimeType, data: a.data)) }
                    else if winner.attachments[name] != nil { attachments.append(.remove(name: name)) }
                } else {
                    body[name] = encoded.value
                    body[DocumentLayout.metaKey(name)] = encoded.meta
                }
            }
        }
        let versions = leaves.compactMap { $0.body[DocumentLayout.objectVersionKey]?.stringValue.flatMap { Int($0) } }
        body[DocumentLayout.entityNameKey] = .string(entity.name)
        var operations: [DocumentStore.WriteOperation] = []
        if body != winner.body || !attachments.isEmpty {
            body[DocumentLayout.objectVersionKey] = .string(String((versions.max() ?? 0) + 1))
            operations.append(.update(id: id, parent: winner.rev, body: body, attachments: attachments))
        }
        for loser in leaves.dropFirst() { operations.append(.delete(id: id, parent: loser.rev)) }
        let written = try ds { try writer().write(operations) }
        toManyCache[id] = nil
        if let first = written.first, !first.deleted { rememberOwn(first.rev, of: id) }
    }
}
