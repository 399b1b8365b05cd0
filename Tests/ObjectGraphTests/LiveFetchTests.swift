import Foundation
import Testing
@testable import ObjectGraph
import TestSupport

/// Live fetches on the reference store, and the change-set arithmetic they rely on.
@Suite struct LiveFetchTests {
    /// Runs `body`, failing instead of hanging when it takes longer than `seconds`.
    static func within<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        do {
            return try await withTimeout(seconds, body)
        } catch let timeout as TimeoutError {
            Issue.record("\(timeout)")
            throw timeout
        }
    }

    static func next(_ iterator: LiveFetch.Iterator) async throws -> (LiveFetch.Iterator, LiveFetchUpdate) {
        try await within(30) {
            var it = iterator
            guard let update = try await it.next() else { throw CancellationError() }
            return (it, update)
        }
    }

    @Test func insertEditDeleteComeInOrderAndUnrelatedSavesAreQuiet() async throws {
        let stack = try Stack()
        let writer = stack.context("writer")
        let apple = try writer.recipe("Apple pie")
        let fig = try writer.recipe("Fig tart")
        try writer.save()

        let request = FetchRequest(entityName: "Recipe", sortDescriptors: [FetchSortDescriptor("name")])
        var (it, update) = try await Self.next(stack.context("reader").observe(request).makeAsyncIterator())
        #expect(update.isInitial)
        #expect(update.objectIDs == [apple.objectID, fig.objectID])

        let cake = try writer.recipe("Carrot cake")
        try writer.save()
        (it, update) = try await Self.next(it)
        #expect(update.changes == FetchResultsChangeSet(inserted: [.init(cake.objectID, at: 1)]))

        try fig.setValue(.string("1 hour"), forKey: "prepTime")
        try writer.save()
        (it, update) = try await Self.next(it)
        #expect(update.changes == FetchResultsChangeSet(updated: [.init(fig.objectID, at: 2)]))

        _ = try writer.recipeType("Dessert")        // another entity: not in the results
        try writer.save()
        try writer.delete(apple)
        try writer.save()
        (it, update) = try await Self.next(it)
        #expect(update.changes == FetchResultsChangeSet(deleted: [.init(apple.objectID, at: 0)]))
        #expect(update.objectIDs == [cake.objectID, fig.objectID])

        // A change underneath (a replicator's write) is seen as well.
        let external = ObjectID(entityName: "Recipe", referenceString: "external-1")
        stack.store.applyExternalChanges(upserts: [ObjectChange(objectID: external, attributes: ["name": .string("Aioli")], toOne: [:], toMany: [:], changedKeys: ["name"], baseline: nil)])
        (it, update) = try await Self.next(it)
        #expect(update.changes == FetchResultsChangeSet(inserted: [.init(external, at: 0)]))
        _ = it
    }

    @Test func changeTokenMovesWithEveryWrite() throws {
        let stack = try Stack()
        let before = try stack.store.changeToken()
        let ctx = stack.context()
        _ = try ctx.recipe("Soup")
        try ctx.save()
        let after = try stack.store.changeToken()
        #expect(before != nil && after != nil && before != after)
        #expect(try stack.store.changeToken() == after)
    }

    @Test func changeSetIndexesAndMoves() {
        let ids = (0..<6).map { ObjectID(entityName: "Recipe", referenceString: "r\($0)") }
        // Old: 0 1 2 3 4; new: 1 5 3 2 4 (0 deleted, 5 inserted, 2 and 3 swapped, 4 changed).
        let changes = FetchResultsChangeSet(from: [ids[0], ids[1], ids[2], ids[3], ids[4]],
                                            to: [ids[1], ids[5], ids[3], ids[2], ids[4]]) { $0 == ids[4] }
        #expect(changes.deleted == [.init(ids[0], at: 0)])
        #expect(changes.inserted == [.init(ids[5], at: 1)])
        #expect(changes.updated == [.init(ids[4], at: 4)])
        #expect(changes.moved.count == 1)
        #expect(Set(changes.moved.map(\.objectID)).isSubset(of: [ids[2], ids[3]]))
        // Shifts caused by insertions and deletions are not moves.
        let shifted = FetchResultsChangeSet(from: [ids[0], ids[1], ids[2]], to: [ids[5], ids[1], ids[2]]) { _ in false }
        #expect(shifted.moved.isEmpty)
        #expect(FetchResultsChangeSet(from: ids, to: ids) { _ in false }.isEmpty)
    }
}
