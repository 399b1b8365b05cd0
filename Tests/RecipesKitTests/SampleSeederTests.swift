import DocumentStore
import Foundation
import Testing
@testable import RecipesKit
import TestSupport
import DocumentFormat

@Suite("Sample seeder")
struct SampleSeederTests {
    @Test("an empty store is seeded once; the decision is kept in a local document")
    func seedsOnce() throws {
        let directory = try TemporaryDirectory()
        let documents = try DocumentStore(path: directory.file("s.sqlite").path)
        let container = try ObjectContainer.inMemoryRecipes()
        let seeder = SampleSeeder(container: container, documentStore: documents)
        #expect(try seeder.record() == nil)
        let sets = try BundledSampleSets.loadAll()
        let record = try seeder.seedIfEmpty(sets)
        #expect(record.outcome == .seeded && record.sets == ["classics", "weeknight"])
        #expect(record.objectsCreated == sets.reduce(0) { $0 + SampleObjects($1).documentIDs.count })
        #expect(try container.newBook().counts()["Recipe"] == 14)
        #expect(try seeder.seedIfEmpty(sets) == record)
        #expect(try container.newBook().counts()["Recipe"] == 14)
        #expect(try documents.getLocal(id: SampleSeeder.recordID) != nil)
    }

    @Test("a store holding a recipe document, even a deleted one, is not seeded")
    func tombstonesCount() throws {
        let directory = try TemporaryDirectory()
        let documents = try DocumentStore(path: directory.file("s.sqlite").path)
        let created = try documents.create(id: "CDTIS-Recipe-gone", body: ["CDTISEntityName": "Recipe", "name": "Gone"])
        _ = try documents.delete(id: "CDTIS-Recipe-gone", parent: created.rev)
        #expect(try StoreInspection.hasRecipeDocuments(documents))
        #expect(try StoreInspection.deletedIDs(among: ["CDTIS-Recipe-gone", "CDTIS-Recipe-never"], in: documents) == ["CDTIS-Recipe-gone"])
        let container = try ObjectContainer.inMemoryRecipes()
        let record = try SampleSeeder(container: container, documentStore: documents).seedIfEmpty(try BundledSampleSets.loadAll())
        #expect(record.outcome == .alreadyHadRecipes)
        #expect(try container.newBook().counts()["Recipe"] == 0)
    }

    @Test("marking a store initialised without samples stops later seeding")
    func disabled() throws {
        let directory = try TemporaryDirectory()
        let documents = try DocumentStore(path: directory.file("s.sqlite").path)
        let container = try ObjectContainer.inMemoryRecipes()
        let seeder = SampleSeeder(container: container, documentStore: documents)
        try seeder.markInitialised(.samplesDisabled)
        #expect(try seeder.seedIfEmpty(try BundledSampleSets.loadAll()).outcome == .samplesDisabled)
        #expect(try container.newBook().counts()["Recipe"] == 0)
    }

    @Test("a record read back equals the one written; one this version cannot read starts the store over")
    func recordsReadBackOrStartOver() throws {
        let directory = try TemporaryDirectory()
        let documents = try DocumentStore(path: directory.file("s.sqlite").path)
        let seeder = SampleSeeder(container: try ObjectContainer.inMemoryRecipes(), documentStore: documents)
        let written = try seeder.markInitialised(.importedByUser, now: Date(timeIntervalSince1970: 86_400))
        #expect(try seeder.record() == written)
        #expect(try seeder.isInitialised)
        let readable: JSONObject = try #require(try documents.getLocal(id: SampleSeeder.recordID))
        for (member, value) in [("outcome", JSONValue.string("someday")), ("objectsCreated", .string("12")),
                                ("sets", .array([.int(1)])), ("date", .null)] {
            var body = readable
            body[member] = value
            try documents.putLocal(id: SampleSeeder.recordID, body: body)
            #expect(try seeder.record() == nil, "\(member)")
            #expect(try !seeder.isInitialised, "\(member)")
        }
    }
}

