import Foundation

/// Replication conflicts surfaced as merge conflicts.
extension ObjectContext {
    // MARK: Replication conflicts

    /// Resolves every replication conflict the store reports (objects whose rows hold
    /// concurrent versions) and returns the objects resolved.
    ///
    /// Each losing version is surfaced as a ``MergeConflict``: the store's current (winning)
    /// row is ``SaveConflict/storedSnapshot``, the attributes where the loser differs are
    /// ``MergeConflict/localChanges``. The policy (`policy`, or ``mergePolicy``) decides:
    /// `storeTrumps` and `rollback` keep the winner, `objectTrumps` takes the loser's
    /// differing attributes, `custom` decides per loser, and `error` throws
    /// ``ObjectGraphError/mergeConflicts(_:)`` listing every conflict without changing
    /// anything. Relationships keep the winner's destinations, so inverses stay consistent.
    @discardableResult
    public func resolveReplicationConflicts(policy: MergePolicy? = nil) throws -> [ObjectID] {
        try performAndWait {
            let policy = policy ?? self.policy
            var resolvedIDs: [ObjectID] = []
            var unresolved: [SaveConflict] = []
            for id in try coordinator.objectsWithConflicts() {
                let (currentRow, losers) = try coordinator.conflictState(for: id)
                guard let current = currentRow, !losers.isEmpty else { continue }
                var values = current.attributes
                var changed = Set<String>()
                for loser in losers {
                    let differing = Set(current.attributes.keys).union(loser.attributes.keys)
                        .filter { (current.attributes[$0] ?? .null) != (loser.attributes[$0] ?? .null) }
                    let conflict = SaveConflict(objectID: id, baselineVersion: loser.version, storedSnapshot: current, changedInStore: differing)
                    let local = Dictionary(uniqueKeysWithValues: differing.map { ($0, loser.attributes[$0] ?? .null) })
                    let resolution: MergeResolution
                    switch policy {
                    case .error: unresolved.append(conflict); continue
                    case .storeTrumps: resolution = .storeTrumps
                    case .rollback: resolution = .rollback
                    case .objectTrumps: resolution = .objectTrumps
                    case .custom(let decide): resolution = decide(MergeConflict(conflict: conflict, localChanges: local))
                    }
                    switch resolution {
                    case .fail: throw ObjectGraphError.mergeConflicts([conflict])
                    case .storeTrumps, .rollback: break
                    case .objectTrumps:
                        for (k, v) in local { values[k] = v; changed.insert(k) }
                    case .merged(let merged):
                        for (k, v) in merged { values[k] = v; changed.insert(k) }
                    }
                }
                if case .error = policy { continue }
                guard let entity = model.entity(named: id.entityName) else { continue }
                var toMany: [String: [ObjectID]] = [:]
                for r in entity.relationships where r.isToMany && !r.isTransient {
                    toMany[r.name] = try coordinator.toManyDestinations(of: id, relationship: r.name)
                }
                let change = ObjectChange(objectID: id, attributes: values, toOne: current.toOne, toMany: toMany, changedKeys: changed, baseline: current)
                let version = try coordinator.resolveConflict(for: id, resolved: change, discarding: losers.map(\.version))
                if let o = registered[id] {
                    if dirty[ObjectIdentifier(o)] == nil {
                        o.baseline = nil
                        o.toManyBaseline = [:]
                    } else {
                        o.baseline = RowSnapshot(objectID: id, attributes: values, toOne: current.toOne, version: version)
                    }
                }
                resolvedIDs.append(id)
            }
            if !unresolved.isEmpty { throw ObjectGraphError.mergeConflicts(unresolved) }
            return resolvedIDs
        }
    }
}
