import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore

/// The adapter's datastore calls go through the connection its work holds: a fetch inside
/// `withReader` reads that snapshot, saves inside `withWriter` or `performAtomically` use the
/// held writer, and nothing asks the datastore for a second connection from inside one.
@Suite("The adapter's held connections")
struct HeldConnectionTests {
    private static func addRecipe(_ name: String, to stack: DocumentStack) throws {
        let context = stack.context("add")
        let recipe = try context.insert("Recipe")
        try recipe.setValue(.string(name), forKey: "name")
        try context.save()
    }

    private static func recipeCount(_ stack: DocumentStack) throws -> Int {
        try stack.context("count").count(for: FetchRequest(entityName: "Recipe"))
    }

    @Test func fetchesInsideWithReaderSeeOneSnapshot() async throws {
        let stack = try DocumentStack()
        try Self.addRecipe("Soup", to: stack)
        // Another store on the same file, as another process would be.
        let other = try DocumentStack(directory: stack.directory)
        let (before, after) = try await stack.store.withReader {
            let before = try Self.recipeCount(stack)
            try Self.addRecipe("Stew", to: other)
            return (before, try Self.recipeCount(stack))
        }
        #expect(before == 1 && after == 1, "a commit made meanwhile is not part of the snapshot")
        #expect(try Self.recipeCount(stack) == 2)
    }

    @Test func savesInsideWithWriterAreReadBackAndCommitted() async throws {
        let stack = try DocumentStack()
        let seen = try await stack.store.withWriter {
            try Self.addRecipe("Soup", to: stack)
            try Self.addRecipe("Salad", to: stack)
            return try Self.recipeCount(stack)
        }
        #expect(seen == 2)
        let reopened = try DocumentStack(directory: stack.directory)
        #expect(try Self.recipeCount(reopened) == 2)
    }

    @Test func aSaveInsideWithReaderIsRefusedAndWritesNothing() async throws {
        let stack = try DocumentStack()
        await #expect(throws: (any Error).self) {
            try await stack.store.withReader { try Self.addRecipe("Soup", to: stack) }
        }
        #expect(try Self.recipeCount(stack) == 0)
    }

    @Test func atomicWorkCommitsTogetherOrNotAtAll() throws {
        let stack = try DocumentStack()
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try stack.coordinator.performAtomically {
                try Self.addRecipe("Soup", to: stack)
                #expect(try Self.recipeCount(stack) == 1, "reads inside see the transaction's writes")
                throw Stop()
            }
        }
        #expect(try Self.recipeCount(stack) == 0)
        try stack.coordinator.performAtomically {
            try Self.addRecipe("Soup", to: stack)
            try Self.addRecipe("Salad", to: stack)
        }
        #expect(try Self.recipeCount(stack) == 2)
    }
}
