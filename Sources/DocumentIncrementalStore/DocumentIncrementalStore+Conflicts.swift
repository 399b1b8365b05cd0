public import DocumentStore
public import Foundation
public import ObjectGraph

extension DocumentIncrementalStore {
    /// Objects whose documents have more than one live revision.
    public func conflictedObjectIDs() throws -> [ObjectID] {
        try replicaConflicts().map(\.objectID)
    }

    /// Every document with conflicting live revisions, as rows.
    public func replicaConflicts() throws -> [ReplicaConflict] {
        try locked {
            var result: [ReplicaConflict] = []
            try ds {
                try documentStore.forEachChange { change in
                    guard change.revisions.count > 1 && !change.deleted, let conflict = try conflict(id: change.id) else { return }
                    result.append(conflict)
                }
            }
            return result.sorted { $0.objectID < $1.objectID }
        }
    }

    private func conflict(id: String) throws -> ReplicaConflict? {
        let leaves = try ds { try documentStore.leafRevisions(id: id) }.filter { !$0.deleted }
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

    /// The leaf written by (or descending from a write of) this store instance.
    private func localLeaf(id: String, leaves: [DocumentRevision]) throws -> DocumentRevision? {
        guard let own = ownRevisions[id] else { return nil }
        for leaf in leaves {
            if leaf.rev == own { return leaf }
            if try ds({ try documentStore.history(id: id, rev: leaf.rev) }).contains(own) { return leaf }
        }
        return nil
    }

    /// The newest revision both leaves descend from that still has its body.
    private func commonAncestor(id: String, _ a: RevisionID, _ b: RevisionID) throws -> DocumentRevision? {
        let left = try ds { try documentStore.history(id: id, rev: a) }
        let right = Set(try ds { try documentStore.history(id: id, rev: b) })
        for rev in left.dropFirst() where right.contains(rev) {
            return try ds { try documentStore.get(id: id, rev: rev) }
        }
        return nil
    }

    /// Resolves every replica conflict by `policy`: writes the merged row as a child of the
    /// winner and deletes the other leaves, in one transaction per document, then reports the
    /// objects to the coordinator so contexts refresh. Returns the objects resolved.
    @discardableResult
    public func resolveConflicts(policy: ReplicaMergePolicy = .storeTrumps) throws -> [ObjectID] {
        try adoptReplicatedMetadata()
        let conflicts = try replicaConflicts()
        var resolved: [ObjectID] = []
        for conflict in conflicts {
            try locked { try resolve(conflict, policy: policy) }
            resolved.append(conflict.objectID)
        }
        if !resolved.isEmpty { try processExternalChanges() }
        return resolved
    }

    private func resolve(_ conflict: ReplicaConflict, policy: ReplicaMergePolicy) throws {
        let id = conflict.objectID.referenceString
        let leaves = try ds { try documentStore.leafRevisions(id: id) }.filter { !$0.deleted }
        guard leaves.count > 1, let model, let entity = model.entity(named: conflict.objectID.entityName) else { return }
        let winner = leaves[0]
        var body = winner.body
        var attachments: [AttachmentChange] = []

        /// Copies property `name` (value, side key, attachment) from `source` into the result.
        func take(_ name: String, from source: DocumentRevision) throws {
            body[name] = source.body[name]
            body[DocumentLayout.metaKey(name)] = source.body[DocumentLayout.metaKey(name)]
            if entity.attribute(named: name).map({ AttributeCodec.isAttachment($0.type) }) == true {
                if source.attachments[name] != nil, let (info, data) = try ds({ try documentStore.attachment(id: id, rev: source.rev, name: name) }) {
                    attachments.append(.put(name: name, contentType: info.contentType, data: data))
                } else if winner.attachments[name] != nil {
                    attachments.append(.remove(name: name))
                }
            }
        }
        /// Whether property `name` has the same value (side key and attachment included) in both.
        func same(_ name: String, _ a: DocumentRevision, _ b: DocumentRevision) -> Bool {
            a.body[name] == b.body[name] && a.body[DocumentLayout.metaKey(name)] == b.body[DocumentLayout.metaKey(name)]
                && a.attachments[name]?.digest == b.attachments[name]?.digest
        }

        switch policy {
        case .storeTrumps:
            // The winner keeps its changes; what only a loser changed since they diverged is kept.
            for loser in leaves.dropFirst() {
                guard let base = try commonAncestor(id: id, winner.rev, loser.rev) else { continue }
                for name in entity.propertyNames where same(name, winner, base) && !same(name, loser, base) {
                    try take(name, from: loser)
                }
            }
        case .localTrumps:
            if let local = try localLeaf(id: id, leaves: leaves), local.rev != winner.rev {
                let base = try commonAncestor(id: id, winner.rev, local.rev)
                for name in entity.propertyNames where base.map({ !same(name, local, $0) }) ?? true {
                    try take(name, from: local)
                }
            } else {
                for loser in leaves.dropFirst() {
                    guard let base = try commonAncestor(id: id, winner.rev, loser.rev) else { continue }
                    for name in entity.propertyNames where same(name, winner, base) && !same(name, loser, base) {
                        try take(name, from: loser)
                    }
                }
            }
        case .custom(let decide):
            switch decide(conflict) {
            case .keepWinner: break
            case .keep(let version):
                if let chosen = leaves.first(where: { $0.rev.description == version.token }), chosen.rev != winner.rev {
                    for name in entity.propertyNames { try take(name, from: chosen) }
                }
            case .merged(let values):
                for (name, value) in values {
                    guard let attribute = entity.attribute(named: name) else { continue }
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
        }
        let versions = leaves.compactMap { $0.body[DocumentLayout.objectVersionKey]?.stringValue.flatMap { Int($0) } }
        body[DocumentLayout.entityNameKey] = .string(entity.name)
        var operations: [DocumentStore.WriteOperation] = []
        if body != winner.body || !attachments.isEmpty {
            body[DocumentLayout.objectVersionKey] = .string(String((versions.max() ?? 0) + 1))
            operations.append(.update(id: id, parent: winner.rev, body: body, attachments: attachments))
        }
        for loser in leaves.dropFirst() { operations.append(.delete(id: id, parent: loser.rev)) }
        let written = try ds { try documentStore.write(operations) }
        if let first = written.first, !first.deleted { ownRevisions[id] = first.rev }
    }
}

// MARK: The object graph's replication-conflict hooks

extension DocumentIncrementalStore {
    /// Objects whose documents have conflicting live revisions (``conflictedObjectIDs()``).
    public func objectsWithConflicts() throws -> [ObjectID] {
        try conflictedObjectIDs()
    }

    /// The rows of the live revisions that lost to the winner.
    public func conflictingSnapshots(for objectID: ObjectID) throws -> [RowSnapshot] {
        try locked {
            let leaves = try ds { try documentStore.leafRevisions(id: objectID.referenceString) }.filter { !$0.deleted }
            return try leaves.dropFirst().compactMap { try decode($0)?.row }
        }
    }

    /// Writes `resolved` as a child of the winning revision and deletes the `discarding`
    /// revisions, in one transaction; with nothing changed only the losers are deleted.
    public func resolveConflict(for objectID: ObjectID, resolved: ObjectChange, discarding: [RowVersion]) throws -> RowVersion {
        try locked {
            let id = objectID.referenceString
            guard let model, let codec, let entity = model.entity(named: objectID.entityName),
                  let winner = try ds({ try documentStore.get(id: id) }) else { throw IncrementalStoreError.objectNotFound(objectID) }
            if let base = resolved.baseline, base.version.token != winner.rev.description {
                let stored = try decode(winner)?.row
                throw IncrementalStoreError.conflicts([SaveConflict(objectID: objectID, baselineVersion: base.version, storedSnapshot: stored,
                                                                    changedInStore: stored.map { Self.changedKeys($0, base) } ?? [])])
            }
            var operations: [DocumentStore.WriteOperation] = []
            if !resolved.changedKeys.isEmpty {
                let previous = winner.body[DocumentLayout.objectVersionKey]?.stringValue.flatMap { Int($0) } ?? 0
                let (body, attachments) = codec.encode(resolved, entity: entity, objectVersion: previous + 1,
                                                       previousAttachments: Set(winner.attachments.keys), onlyChangedAttachments: true,
                                                       previousBody: winner.body)
                operations.append(.update(id: id, parent: winner.rev, body: body, attachments: attachments))
            }
            let live = Set(try ds { try documentStore.leafRevisions(id: id) }.filter { !$0.deleted }.map(\.rev.description))
            for version in discarding where version.token != winner.rev.description && live.contains(version.token) {
                guard let rev = RevisionID(version.token) else { continue }
                operations.append(.delete(id: id, parent: rev))
            }
            let written = try ds { try documentStore.write(operations) }
            toManyCache[id] = nil
            if let first = written.first, !first.deleted {
                ownRevisions[id] = first.rev
                return RowVersion(first.rev.description)
            }
            return RowVersion(winner.rev.description)
        }
    }
}
