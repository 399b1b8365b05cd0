import Synchronization
import Foundation

/// Validating and saving: the store request, permanent IDs, merge policies.
extension ObjectContext {
    // MARK: Validation

    func validate() throws {
        var failures: [ValidationFailure] = []
        let objects = dirty.values.filter { !$0.deletedFlag && ($0.insertedFlag || !$0.pending.isEmpty) }
            .sorted { ($0.entity.name, $0.insertionSequence, $0.objectID.referenceString) < ($1.entity.name, $1.insertionSequence, $1.objectID.referenceString) }
        for o in objects {
            func fail(_ key: String, _ reason: String) { failures.append(ValidationFailure(objectID: o.objectID, key: key, reason: reason)) }
            for a in o.entity.attributes where !a.isTransient {
                // An encrypted value neither read nor changed was valid when it was saved.
                if a.isEncrypted, o.pending[a.name] == nil, o.baseline?.deferredAttributes.contains(a.name) == true { continue }
                let v = try o.currentAttribute(a.name)
                if v.isNull {
                    if !a.isOptional { fail(a.name, "is required but nil") }
                    continue
                }
                let measured: AttributeValue
                let what: String
                switch v {
                case .string(let s): measured = .int(Int64(s.count)); what = "length"
                case .data(let d), .transformable(let d): measured = .int(Int64(d.count)); what = "length"
                default: measured = v; what = "value"
                }
                if let min = a.minValue, let order = AttributeValue.compare(measured, min), order == .orderedAscending {
                    fail(a.name, "\(what) \(measured) is below the minimum \(min)")
                }
                if let max = a.maxValue, let order = AttributeValue.compare(measured, max), order == .orderedDescending {
                    fail(a.name, "\(what) \(measured) is above the maximum \(max)")
                }
            }
            for r in o.entity.relationships where !r.isTransient {
                if r.isToMany {
                    if r.isOptional && r.minCount == 0 && r.maxCount == 0 { continue }
                    let count = try o.currentToMany(r.name, lenient: true).count
                    if count == 0 {
                        if !r.isOptional { fail(r.name, "is required but empty") }
                        continue
                    }
                    if r.minCount > 0 && count < r.minCount { fail(r.name, "has \(count) object(s), needs at least \(r.minCount)") }
                    if r.maxCount > 0 && count > r.maxCount { fail(r.name, "has \(count) object(s), allows at most \(r.maxCount)") }
                } else if !r.isOptional, try o.currentToOne(r.name) == nil {
                    fail(r.name, "is required but nil")
                }
            }
        }
        if !failures.isEmpty { throw ObjectGraphError.validation(failures) }
    }

    // MARK: Save

    func fullChange(_ o: ManagedObject, changedKeys: Set<String>, baseline: RowSnapshot?) throws -> ObjectChange {
        var attributes: [String: AttributeValue] = [:]
        attributes.reserveCapacity(o.entity.attributes.count)
        var toOne: [String: ObjectID] = [:]
        var toMany: [String: [ObjectID]] = [:]
        for a in o.entity.attributes where !a.isTransient {
            // An encrypted value that was never read nor changed stays with the store as it is
            // (reading it would need the password, and the store keeps its ciphertext).
            if a.isEncrypted, !changedKeys.contains(a.name), o.baseline?.deferredAttributes.contains(a.name) == true { continue }
            attributes[a.name] = try o.currentAttribute(a.name)
        }
        for r in o.entity.relationships where !r.isTransient {
            if r.isToMany { toMany[r.name] = try o.currentToMany(r.name, lenient: true) }
            else if let id = try o.currentToOne(r.name) { toOne[r.name] = id }
        }
        return ObjectChange(objectID: o.objectID, attributes: attributes, toOne: toOne, toMany: toMany, changedKeys: changedKeys, baseline: baseline)
    }

    func buildRequest() throws -> StoreSaveRequest {
        let objects = dirty.values.sorted { ($0.insertionSequence, $0.objectID) < ($1.insertionSequence, $1.objectID) }
        var inserted: [ObjectChange] = [], updated: [ObjectChange] = [], deleted: [ObjectDeletion] = []
        for o in objects {
            if o.deletedFlag {
                if !o.insertedFlag { deleted.append(ObjectDeletion(objectID: o.objectID, baseline: o.baseline)) }
            } else if o.insertedFlag {
                inserted.append(try fullChange(o, changedKeys: Set(o.entity.propertyNames), baseline: nil))
            } else if !o.pending.isEmpty {
                try o.fireFault()
                updated.append(try fullChange(o, changedKeys: Set(o.pending.keys), baseline: o.baseline))
            }
        }
        return StoreSaveRequest(inserted: inserted, updated: updated, deleted: deleted)
    }

    /// Replaces temporary IDs by permanent ones everywhere in the context.
    ///
    /// Only unsaved values can name an object that still had a temporary ID: persisted rows
    /// and loaded to-many baselines come from the store, which knows permanent IDs only, and
    /// every object with unsaved values is in `dirty`.
    func remap(_ mapping: [ObjectID: ObjectID]) {
        guard !mapping.isEmpty else { return }
        for (temporary, permanent) in mapping {
            guard let o = registered.removeValue(forKey: temporary) else { continue }
            o.objectID = permanent
            registered[permanent] = o
        }
        for o in dirty.values where !o.pending.isEmpty {
            var remapped: [String: ManagedObject.PendingValue] = [:]
            for (key, value) in o.pending {
                switch value {
                case .toOne(let d?) where d.isTemporary:
                    remapped[key] = .toOne(mapping[d] ?? d)
                case .toMany(let ids) where ids.contains(where: \.isTemporary):
                    remapped[key] = .toMany(ids.map { $0.isTemporary ? mapping[$0] ?? $0 : $0 })
                default:
                    break
                }
            }
            for (key, value) in remapped { o.pending[key] = value }
        }
    }

    /// Validates, obtains permanent IDs, writes all changes through the coordinator (resolving
    /// conflicts by ``mergePolicy``) and posts a ``SaveNotification`` to ``saves()``.
    /// - Throws: ``ObjectGraphError/validation(_:)`` listing every failing property,
    ///   ``ObjectGraphError/mergeConflicts(_:)`` when the policy does not resolve conflicts,
    ///   ``ObjectGraphError/deferredAccessFailure(object:key:cause:)`` when a read or write
    ///   through a generated type failed since the last save or fetch.
    ///   After a failed save the context keeps its changes.
    public func save() throws {
        let notification = try entering { () -> SaveNotification? in
            try throwDeferredFailure()
            guard hasChanges else { return nil }
            try validate()
            let temporaries = dirty.values.filter { $0.insertedFlag && !$0.deletedFlag && $0.objectID.isTemporary }
                .sorted { $0.insertionSequence < $1.insertionSequence }
            if !temporaries.isEmpty {
                let permanent = try coordinator.obtainPermanentIDs(for: temporaries.map(\.objectID))
                remap(Dictionary(uniqueKeysWithValues: zip(temporaries.map(\.objectID), permanent)))
            }
            var attempts = 0
            var request: StoreSaveRequest
            var result: StoreSaveResult
            while true {
                request = try buildRequest()
                do {
                    result = try coordinator.save(request)
                    break
                } catch ObjectGraphError.store(.conflicts(let conflicts)) {
                    attempts += 1
                    if attempts > 5 { throw ObjectGraphError.mergeConflicts(conflicts) }
                    try resolve(conflicts)
                }
            }
            for change in [request.inserted, request.updated].joined() {
                guard let o = registered[change.objectID] else { continue }
                o.baseline = RowSnapshot(objectID: change.objectID, attributes: change.attributes, toOne: change.toOne,
                                         version: result.versions[change.objectID] ?? RowVersion(""))
                o.toManyBaseline = change.toMany
                o.pending = [:]
                o.insertedFlag = false
            }
            for deletion in request.deleted {
                if let o = registered.removeValue(forKey: deletion.objectID) { o.contextStorage = nil }
            }
            dirty = [:]
            let note = SaveNotification(inserted: Set(request.inserted.map(\.objectID)),
                                        updated: Set(request.updated.map(\.objectID)),
                                        deleted: Set(request.deleted.map(\.objectID)))
            return note
        }
        if let notification {
            saveStreams.post(notification)
            coordinator.contextDidSave(inbox, notification)
        }
    }

    /// Whether saves of other contexts on the same coordinator are merged into this one
    /// automatically: when the context is next used, or at once on the main actor for a
    /// main-actor context (see ``processPendingChanges()``). Default `false`.
    public var automaticallyMergesChanges: Bool {
        get { inbox.mergesSaves.load(ordering: .relaxed) }
        set { inbox.mergesSaves.store(newValue, ordering: .relaxed) }
    }

    /// Three-way merge of a pending to-many value with the store's current destinations.
    func mergeToMany(_ o: ManagedObject) throws {
        for (key, value) in o.pending {
            guard case .toMany(let mine) = value else { continue }
            let base = o.toManyBaseline[key] ?? []
            let stored = try coordinator.toManyDestinations(of: o.objectID, relationship: key)
            let added = mine.filter { !base.contains($0) }
            let removed = Set(base.filter { !mine.contains($0) })
            o.pending[key] = .toMany(stored.filter { !removed.contains($0) } + added.filter { !stored.contains($0) })
            o.toManyBaseline[key] = stored
        }
    }

    func forget(_ o: ManagedObject) {
        registered[o.objectID] = nil
        dirty[ObjectIdentifier(o)] = nil
        o.contextStorage = nil
    }

    func resolve(_ conflicts: [SaveConflict]) throws {
        coordinator.invalidateCache(for: conflicts.map(\.objectID))
        for conflict in conflicts {
            guard let o = registered[conflict.objectID] else { continue }
            let resolution: MergeResolution
            switch policy {
            case .error: throw ObjectGraphError.mergeConflicts(conflicts)
            case .storeTrumps: resolution = .storeTrumps
            case .objectTrumps: resolution = .objectTrumps
            case .rollback: resolution = .rollback
            case .custom(let decide): resolution = decide(MergeConflict(conflict: conflict, localChanges: o.pendingAttributes))
            }
            let stored = conflict.storedSnapshot
            switch resolution {
            case .fail:
                throw ObjectGraphError.mergeConflicts(conflicts)
            case .rollback:
                guard let stored else { forget(o); continue }
                o.pending = [:]
                o.deletedFlag = false
                o.baseline = stored
                o.toManyBaseline = [:]
                dirty[ObjectIdentifier(o)] = nil
            case .storeTrumps, .merged:
                guard let stored else { forget(o); continue }
                if !o.deletedFlag {
                    if case .merged(let values) = resolution {
                        o.pending = o.pending.filter { if case .attribute = $0.value { return false } else { return true } }
                        for (k, v) in values { o.pending[k] = .attribute(v) }
                    } else {
                        for key in conflict.changedInStore {
                            if case .toMany? = o.pending[key] { continue }
                            o.pending[key] = nil
                        }
                    }
                    try mergeToMany(o)
                }
                o.baseline = stored
            case .objectTrumps:
                if o.deletedFlag {
                    if stored == nil { forget(o) } else { o.baseline = stored }
                    continue
                }
                if let stored {
                    try mergeToMany(o)
                    o.baseline = stored
                } else {
                    // Written again: every current value becomes an insert. To-many
                    // relationships never loaded cannot be read from the store any more.
                    for a in o.entity.attributes where !a.isTransient { o.pending[a.name] = .attribute(try o.currentAttribute(a.name)) }
                    for r in o.entity.relationships where !r.isTransient {
                        if r.isToMany {
                            if case .toMany? = o.pending[r.name] { continue }
                            o.pending[r.name] = .toMany(o.toManyBaseline[r.name] ?? [])
                        } else {
                            o.pending[r.name] = .toOne(try o.currentToOne(r.name))
                        }
                    }
                    o.baseline = nil
                    o.toManyBaseline = [:]
                    o.insertedFlag = true
                }
            }
        }
    }
}
