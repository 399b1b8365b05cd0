package import DocumentStore
public import DocumentIncrementalStore
public import Foundation

/// First-run seeding of a store with the bundled sample recipes.
///
/// A store is seeded at most once in its life: the decision is written to the local
/// document `_local/recipes-seeding`, and once it exists nothing is imported again, so a
/// sample the user deleted never comes back. Samples are imported only into a store that
/// holds no recipe document at all, live or deleted — with a remote, the caller pulls first,
/// so a remote that already has recipes (or had them) is never seeded again. Samples carry
/// deterministic IDs and fixed timestamps, so two machines seeding at once write identical
/// revisions, which replication merges into one copy without a conflict.
public struct SampleSeeder {
    /// The local document holding the ``SeedingRecord``.
    public static let recordID = "recipes-seeding"

    /// The object graph the samples are imported through.
    public let container: ObjectContainer
    /// The datastore under it (for the local record and tombstones).
    package let documentStore: DocumentStore

    /// A seeder for one store.
    package init(container: ObjectContainer, documentStore: DocumentStore) {
        self.container = container
        self.documentStore = documentStore
    }

    /// The recorded decision, or `nil` for a never-initialised store.
    public func record() throws(RecipesError) -> SeedingRecord? {
        try wrap { try documentStore.getLocal(id: Self.recordID).flatMap(SeedingRecord.init(json:)) }
    }

    /// Whether seeding already happened (or was decided against) for this store.
    public var isInitialised: Bool {
        get throws(RecipesError) { try record() != nil }
    }

    /// Marks the store initialised without importing anything.
    @discardableResult
    public func markInitialised(_ outcome: SeedingRecord.Outcome, now: Date = Date()) throws(RecipesError) -> SeedingRecord {
        let record = SeedingRecord(outcome: outcome, date: Self.timestamp(now))
        try wrap { try LocalRecord.write(record, id: Self.recordID, in: documentStore) }
        return record
    }

    /// Imports `sets` if the store holds no recipe document, live or deleted, leaving out
    /// any sample whose document was deleted; then records the decision. Does nothing but
    /// return the record when the store is already initialised.
    @discardableResult
    public func seedIfEmpty(_ sets: [SampleSet], now: Date = Date()) throws(RecipesError) -> SeedingRecord {
        if let existing = try record() { return existing }
        if try wrap({ try StoreInspection.hasRecipeDocuments(documentStore) }) {
            return try markInitialised(.alreadyHadRecipes, now: now)
        }
        let ids = sets.flatMap { SampleObjects($0).documentIDs }
        let deleted = try wrap { try StoreInspection.deletedIDs(among: ids, in: documentStore) }
        let plan = try SampleImporter(context: container.newContext(name: "seeding")).importSets(sets, excluding: deleted)
        let record = SeedingRecord(outcome: .seeded, sets: sets.map(\.name), objectsCreated: plan.created, date: Self.timestamp(now))
        try wrap { try LocalRecord.write(record, id: Self.recordID, in: documentStore) }
        return record
    }

    static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    private func wrap<T>(_ body: () throws -> T) throws(RecipesError) -> T {
        do { return try body() } catch { throw RecipeBook.recipesError(error) }
    }
}
