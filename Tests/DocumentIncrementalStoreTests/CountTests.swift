import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore

@Suite("Count fetches")
struct CountTests {
    @Test func countsComeFromTheDatastoreWithoutMaterializingObjects() throws {
        let stack = try DocumentStack()
        let writer = stack.context("writer")
        let dessert = try writer.insert("RecipeType")
        try dessert.setValue(.string("Dessert"), forKey: "name")
        for i in 0..<30 {
            let r = try writer.insert("Recipe")
            try r.setValue(.string("Recipe \(i)"), forKey: "name")
            if i % 3 == 0 { try r.setObject(dessert, forKey: "type") }
        }
        try writer.save()
        let reader = stack.context("reader")
        let byType = FetchRequest(entityName: "Recipe", predicate: try ObjectPredicate(format: "type.name == 'Dessert'"))
        #expect(try reader.count(for: byType) == 10)
        #expect(reader.registeredObjectCount == 0, "a pushed-down count registers no objects")
        var limited = byType
        limited.fetchLimit = 4
        #expect(try reader.count(for: limited) == 4)
        limited.resultType = .count
        if case .count(let n) = try reader.execute(limited) { #expect(n == 4) } else { Issue.record("expected a count") }
        // Not expressible in the datastore: counted from rows, still right.
        #expect(try reader.count(for: FetchRequest(entityName: "Recipe", predicate: try ObjectPredicate(format: "name CONTAINS[c] '1'"))) == 12)
        // Pending changes are reflected.
        let extra = try reader.insert("Recipe")
        try extra.setValue(.string("Unsaved"), forKey: "name")
        #expect(try reader.count(for: FetchRequest(entityName: "Recipe")) == 31)
    }
}
