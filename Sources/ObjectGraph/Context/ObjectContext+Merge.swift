import Foundation

/// Rollback, refresh, and merging other contexts' saves and store changes.
extension ObjectContext {
    // MARK: Rollback, refresh, merge

    /// Discards every unsaved change: inserted objects leave the context, deleted ones come
    /// back, changed ones return to their persisted values.
    public func rollback() {
        entering {
            for o in dirty.values {
                if o.insertedFlag {
                    registered[o.objectID] = nil
                    o.contextStorage = nil
                } else {
                    o.pending = [:]
                    o.deletedFlag = false
                    o.toManyBaseline = [:]
                    o.notifyAllPropertiesChanged()
                }
            }
            dirty = [:]
        }
    }

    /// Forgets every object: unsaved changes are discarded (as ``rollback()`` does) and
    /// every registered object leaves the context, which starts again empty. Objects taken
    /// from it before must not be used afterwards. A long import resets between batches so
    /// memory stays flat.
    public func reset() {
        entering {
            for o in registered.values { o.contextStorage = nil }
            registered = [:]
            dirty = [:]
        }
    }

    /// Reloads an object from the store. With `mergeChanges` false its unsaved changes are
    /// discarded and it turns into a fault; with true it takes the latest persisted values
    /// and keeps its unsaved changes on top.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        try entering {
            try checkOwned(object)
            guard !object.insertedFlag else { return }
            if mergeChanges {
                guard let row = try coordinator.snapshot(for: object.objectID) else { throw ObjectGraphError.objectNotFound(object.objectID) }
                object.baseline = row
                try mergeToMany(object)
                object.toManyBaseline = object.toManyBaseline.filter { object.pending[$0.key] != nil }
                object.notifyAllPropertiesChanged()
            } else {
                object.pending = [:]
                object.deletedFlag = false
                object.baseline = nil
                object.toManyBaseline = [:]
                dirty[ObjectIdentifier(object)] = nil
                object.notifyAllPropertiesChanged()
            }
        }
    }

    /// Turns every unchanged object back into a fault, so values reload on next access.
    public func refreshAllObjects() {
        entering {
            for o in registered.values where dirty[ObjectIdentifier(o)] == nil {
                let wasLoaded = o.baseline != nil || !o.toManyBaseline.isEmpty
                o.baseline = nil
                o.toManyBaseline = [:]
                if wasLoaded { o.notifyAllPropertiesChanged() }
            }
        }
    }

    /// Brings this context up to date with another context's save: objects it deleted leave,
    /// objects it updated reload (unchanged ones become faults; changed ones keep their
    /// changes over the new values), and cached to-many relationships reload.
    public func mergeChanges(from notification: SaveNotification) {
        entering { absorb(updated: notification.updated, deleted: notification.deleted) }
    }

    func absorb(updated: Set<ObjectID>, deleted: Set<ObjectID>) {
        for id in deleted {
            if let o = registered[id] {
                forget(o)
                o.notifyAllPropertiesChanged()
            }
        }
        for o in registered.values {
            let changed = dirty[ObjectIdentifier(o)] != nil
            let reloads = updated.contains(o.objectID)
            if reloads {
                if changed {
                    if let row = try? coordinator.snapshot(for: o.objectID) {
                        o.baseline = row
                        try? mergeToMany(o)
                    }
                } else {
                    o.baseline = nil
                }
            }
            if reloads {
                if !changed { o.toManyBaseline = [:] }
                o.notifyAllPropertiesChanged()
            } else if !changed, !o.toManyBaseline.isEmpty {
                // Another object's save may have linked to or from this one: its cached
                // to-many relationships reload, and their observers hear of it.
                let cached = o.toManyBaseline.keys
                o.toManyBaseline = [:]
                for key in cached { o.notifyingChange(of: key) {} }
            }
        }
    }
}
