import DocumentIncrementalStore
package import DocumentStore

/// Questions seeding and status ask of a document store directly, below the object graph,
/// because the graph cannot see deleted objects.
package enum StoreInspection {
    /// The ID prefix of every `Recipe` document, from the adapter's layout.
    package static var recipePrefix: String { DocumentLayout.documentIDPrefix(entityName: Recipe.entityName) }

    /// Whether the store holds any recipe document, live or deleted (a tombstone counts: a
    /// remote whose user deleted every sample must not be seeded again). One ID look-up.
    package static func hasRecipeDocuments(_ store: DocumentStore) throws -> Bool {
        try store.hasDocuments(withIDPrefix: recipePrefix)
    }

    /// Those of `ids` whose documents exist only as tombstones (deleted by someone).
    package static func deletedIDs(among ids: [String], in store: DocumentStore) throws -> Set<String> {
        var deleted = Set<String>()
        for id in ids where try store.get(id: id) == nil {
            if try !store.leafRevisions(id: id).isEmpty { deleted.insert(id) }
        }
        return deleted
    }

    /// Documents with conflicting live revisions (counted from the store's conflict flag).
    package static func conflictedDocumentCount(_ store: DocumentStore) throws -> Int {
        try store.conflictedDocumentCount()
    }

    /// Documents written after `sequence` (counted in the store, not read from the feed).
    package static func changeCount(since sequence: Int64, in store: DocumentStore) throws -> Int {
        try store.changeCount(since: sequence)
    }
}
