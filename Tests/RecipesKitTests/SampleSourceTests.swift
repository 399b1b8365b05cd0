import GRDB
import Foundation
import Testing
@testable import RecipesKit
import TestSupport

@Suite("Sample source")
struct SampleSourceTests {
    @Test("a Core Data store is recognised by its content, whatever its name")
    func coreDataStore() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.copyOfAppleStore(in: directory, named: "old-recipes.data")
        let sets = try SampleSource.sampleSets(at: store)
        #expect(sets.map(\.name) == ["old-recipes"])
        #expect(sets.first?.recipes.count == 7)
    }

    @Test("a JSON file, a folder of them, and the errors of each reader")
    func jsonAndErrors() throws {
        let directory = try TemporaryDirectory()
        try directory.write("sets/a.json", #"{"name": "a", "recipes": [{"name": "Pie"}]}"#)
        try directory.write("sets/b.json", #"{"name": "b", "recipes": [{"name": "Tart"}]}"#)
        #expect(try SampleSource.sampleSets(at: directory.file("sets")).map(\.name) == ["a", "b"])
        #expect(try SampleSource.sampleSets(at: directory.file("sets/b.json")).map(\.name) == ["b"])

        let bad = try directory.write("bad.json", #"{"name": "c", "recipes": [{"name": 1}]}"#)
        do {
            _ = try SampleSource.sampleSets(at: bad)
            Issue.record("a bad set was accepted")
        } catch {
            #expect(error.summary == "bad.json: $.recipes[0].name: expected a non-empty string, found a number")
        }

        let store = try Fixtures.copyOfAppleStore(in: directory)
        let queue = try GRDBTestSupport.open(store)
        try queue.write { try $0.execute(sql: "UPDATE ZINGREDIENT SET ZRECIPE = 123 WHERE Z_PK = 5") }
        try queue.close()
        #expect {
            try SampleSource.sampleSets(at: store)
        } throws: { error in
            guard case SampleSourceError.coreDataStore(let inner) = error else { return false }
            return inner.row?.table == "ZINGREDIENT" && inner.row?.primaryKey == 5
        }
        #expect(throws: SampleSourceError.self) { try SampleSource.sampleSets(at: directory.file("missing.json")) }
    }
}
