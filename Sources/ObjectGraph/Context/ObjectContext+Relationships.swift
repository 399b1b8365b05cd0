import Foundation

/// Keeping both sides of a relationship in step: links, unlinks and inverses.
extension ObjectContext {
    // MARK: Relationship maintenance

    func inverse(of rel: RelationshipDescription) -> RelationshipDescription? {
        guard let name = rel.inverseName else { return nil }
        return model.entity(named: rel.destinationEntityName)?.relationship(named: name)
    }

    func checkDestination(_ source: ManagedObject, _ rel: RelationshipDescription, _ dest: ManagedObject) throws {
        try checkOwned(dest)
        try checkDestinationEntity(source, rel, dest.entity.name)
    }

    /// Refuses a destination of entity `entityName` unless it is the relationship's
    /// destination entity or one of its sub-entities.
    func checkDestinationEntity(_ source: ManagedObject, _ rel: RelationshipDescription, _ entityName: String) throws {
        guard let want = model.entity(named: rel.destinationEntityName), let given = model.entity(named: entityName),
              model.entity(given, isKindOf: want) else {
            throw ObjectGraphError.wrongDestination(entity: source.entity.name, key: rel.name, expected: rel.destinationEntityName, got: entityName)
        }
    }

    /// Makes `b` a destination of `a.rel` and `a` a destination of `b`'s inverse, detaching
    /// whatever a to-one side pointed to before.
    func link(_ a: ManagedObject, _ rel: RelationshipDescription, _ b: ManagedObject) throws {
        try checkDestination(a, rel, b)
        if rel.isToMany {
            if try !a.appendToMany(rel.name, b.objectID) { return }
        } else {
            if let current = try a.currentToOne(rel.name) {
                if current == b.objectID { return }
                try unlink(a, rel, try object(with: current))
            }
            try a.primitiveSet(rel.name, .toOne(b.objectID))
        }
        guard let inv = inverse(of: rel) else { return }
        if inv.isToMany {
            try b.appendToMany(inv.name, a.objectID)
        } else {
            if let previous = try b.currentToOne(inv.name), previous != a.objectID {
                try unlink(b, inv, try object(with: previous))
            }
            try b.primitiveSet(inv.name, .toOne(a.objectID))
        }
    }

    /// Removes `b` from `a.rel` and `a` from `b`'s inverse (unless the store does not hold `b`,
    /// a destination that has not replicated yet: it has no inverse here to update).
    func unlink(_ a: ManagedObject, _ rel: RelationshipDescription, _ b: ManagedObject) throws {
        if rel.isToMany {
            let current = try a.currentToMany(rel.name)
            guard current.contains(b.objectID) else { return }
            try a.primitiveSet(rel.name, .toMany(current.filter { $0 != b.objectID }))
        } else {
            guard try a.currentToOne(rel.name) == b.objectID else { return }
            try a.primitiveSet(rel.name, .toOne(nil))
        }
        guard let inv = inverse(of: rel), try !b.checkMissingFromStore() else { return }
        try removeInverse(b, inv, a.objectID)
    }

    func removeInverse(_ b: ManagedObject, _ inv: RelationshipDescription, _ a: ObjectID) throws {
        if inv.isToMany {
            let current = try b.currentToMany(inv.name)
            if current.contains(a) { try b.primitiveSet(inv.name, .toMany(current.filter { $0 != a })) }
        } else if try b.currentToOne(inv.name) == a {
            try b.primitiveSet(inv.name, .toOne(nil))
        }
    }

    func destinations(_ o: ManagedObject, _ rel: RelationshipDescription) throws -> [ObjectID] {
        rel.isToMany ? try o.currentToMany(rel.name) : (try o.currentToOne(rel.name)).map { [$0] } ?? []
    }
}
