import DocumentStore

/// Questions seeding and status ask of a document store directly, below the object graph,
/// because the graph cannot see deleted objects.
public enum StoreInspection {
    /// The ID prefix of every `Recipe` document.
    public static let recipePrefix = "CDTIS-Recipe-"

    /// Whether the store holds any recipe document, live or deleted (a tombstone counts: a
    /// remote whose user deleted every sample must not be seeded again).
    public static func hasRecipeDocuments(_ store: DocumentStore) throws -> Bool {
        var since: Int64 = 0
        while true {
            let batch = try store.changes(since: since, limit: 1000)
            if batch.changes.isEmpty { return false }
            if batch.changes.contains(where: { $0.id.hasPrefix(recipePrefix) }) { return true }
            since = batch.lastSequence
        }
    }

    /// Those of `ids` whose documents exist only as tombstones (deleted by someone).
    public static func deletedIDs(among ids: [String], in store: DocumentStore) throws -> Set<String> {
        var deleted = Set<String>()
        for id in ids where try store.get(id: id) == nil {
            if try !store.leafRevisions(id: id).isEmpty { deleted.insert(id) }
        }
        return deleted
    }

    /// Documents with conflicting live revisions.
    public static func conflictedDocumentCount(_ store: DocumentStore) throws -> Int {
        var count = 0
        var since: Int64 = 0
        while true {
            let batch = try store.changes(since: since, limit: 1000)
            if batch.changes.isEmpty { return count }
            for change in batch.changes where !change.deleted && change.revisions.count > 1 {
                if try !store.conflicts(id: change.id).isEmpty { count += 1 }
            }
            since = batch.lastSequence
        }
    }

    /// Changes-feed entries after `sequence` (documents written since then).
    public static func changeCount(since sequence: Int64, in store: DocumentStore) throws -> Int {
        var count = 0
        var since = sequence
        while true {
            let batch = try store.changes(since: since, limit: 1000)
            if batch.changes.isEmpty { return count }
            count += batch.changes.count
            since = batch.lastSequence
        }
    }
}
