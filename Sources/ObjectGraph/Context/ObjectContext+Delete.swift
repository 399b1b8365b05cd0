import Foundation

/// Deleting objects with the model's delete rules.
extension ObjectContext {
    // MARK: Delete

    /// Deletes an object, applying delete rules: `cascade` deletes destinations too,
    /// `nullify` removes the object from its destinations' inverses, `deny` refuses while
    /// the relationship is not empty, `noAction` leaves destinations as they are.
    /// Destinations the store does not hold (not replicated yet) are left alone: there is
    /// nothing here to cascade to or to nullify.
    /// - Throws: ``ObjectGraphError/deleteDenied(object:relationship:destinations:)``;
    ///   nothing is deleted then.
    public func delete(_ object: ManagedObject) throws {
        try entering {
            try checkOwned(object)
            if object.deletedFlag { return }
            var closure: [ManagedObject] = []
            var seen = Set<ObjectIdentifier>()
            func visit(_ o: ManagedObject) throws {
                guard !o.deletedFlag, seen.insert(ObjectIdentifier(o)).inserted else { return }
                if o !== object, try o.checkMissingFromStore() { return }
                closure.append(o)
                for rel in o.entity.relationships where rel.deleteRule == .cascade {
                    for id in try destinations(o, rel) { try visit(try self.object(with: id)) }
                }
            }
            try visit(object)
            let ids = Set(closure.map(\.objectID))
            for o in closure {
                for rel in o.entity.relationships where rel.deleteRule == .deny {
                    let remaining = try destinations(o, rel).filter { !ids.contains($0) }
                    if !remaining.isEmpty { throw ObjectGraphError.deleteDenied(object: o.objectID, relationship: rel.name, destinations: remaining) }
                }
            }
            for o in closure {
                for rel in o.entity.relationships where rel.deleteRule == .nullify || rel.deleteRule == .cascade {
                    guard let inv = inverse(of: rel) else { continue }
                    for id in try destinations(o, rel) where !ids.contains(id) {
                        let destination = try self.object(with: id)
                        if try destination.checkMissingFromStore() { continue }
                        try removeInverse(destination, inv, o.objectID)
                    }
                }
            }
            for o in closure {
                try o.fireFault()
                o.deletedFlag = true
                if o.insertedFlag {
                    registered[o.objectID] = nil
                    dirty[ObjectIdentifier(o)] = nil
                    o.contextStorage = nil
                } else {
                    dirty[ObjectIdentifier(o)] = o
                }
            }
        }
    }
}
