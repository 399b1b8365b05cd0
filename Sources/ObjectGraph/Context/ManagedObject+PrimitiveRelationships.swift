/// Relationship writes that leave the inverse alone, as Core Data's primitive accessors do.
///
/// Setting a relationship normally updates its inverse on every destination it touches.
/// A bulk writer that links thousands of objects to a few (an import of 100,000 recipes into
/// eight types) would then rewrite each few's ever longer list with every batch it saves.
/// With these it links the many side alone while it goes and writes each list once at the
/// end, in the same transaction. The caller keeps the two sides consistent: a save writes
/// exactly what it is given.
extension ManagedObject {
    /// Points a to-one relationship at `id` (or at nothing), leaving the inverse of the old
    /// and the new destination as they are.
    /// - Throws: ``ObjectGraphError/unknownProperty(entity:key:expected:)`` when `key` is not
    ///   a to-one relationship, ``ObjectGraphError/wrongDestination(entity:key:expected:got:)``
    ///   when `id` names an entity the relationship cannot point to.
    public func setPrimitiveObjectID(_ id: ObjectID?, forKey key: String) throws {
        let ctx = try context()
        try ctx.entering {
            let relationship = try relationshipDescription(key, toMany: false)
            if let id { try ctx.checkDestinationEntity(self, relationship, id.entityName) }
            guard try currentToOne(key) != id else { return }
            try primitiveSet(key, .toOne(id))
        }
    }

    /// Replaces a to-many relationship's destinations with `ids`, in this order, leaving
    /// their inverses (and those of the destinations it drops) as they are.
    /// - Throws: ``ObjectGraphError/unknownProperty(entity:key:expected:)`` when `key` is not
    ///   a to-many relationship, ``ObjectGraphError/wrongDestination(entity:key:expected:got:)``
    ///   when one of `ids` names an entity the relationship cannot point to.
    public func setPrimitiveObjectIDs(_ ids: [ObjectID], forKey key: String) throws {
        let ctx = try context()
        try ctx.entering {
            let relationship = try relationshipDescription(key, toMany: true)
            var checkedEntities = Set<String>()
            for id in ids where checkedEntities.insert(id.entityName).inserted {
                try ctx.checkDestinationEntity(self, relationship, id.entityName)
            }
            guard try currentToMany(key) != ids else { return }
            try primitiveSet(key, .toMany(ids))
        }
    }

}
