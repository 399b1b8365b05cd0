import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore
import TestSupport

/// Live fetches over a real store file: saves through the same coordinator, and writes by a
/// second, independent opening of the file (as another process makes them).
@Suite struct LiveFetchTests {
    static let byName = FetchSortDescriptor("name")

    /// Runs `body`, failing instead of hanging when it takes longer than `seconds`.
    static func within<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        do {
            return try await withTimeout(seconds, body)
        } catch let timeout as TimeoutError {
            Issue.record("\(timeout)")
            throw timeout
        }
    }

    static func recipe(_ context: ObjectContext, _ name: String, prepTime: String? = nil) throws -> ObjectID {
        let r = try context.insert("Recipe")
        try r.setValue(.string(name), forKey: "name")
        if let prepTime { try r.setValue(.string(prepTime), forKey: "prepTime") }
        try context.save()
        return r.objectID
    }

    /// Waits for the next element (a hang guard fails the test rather than blocking it).
    static func next(_ iterator: LiveFetch.Iterator) async throws -> (LiveFetch.Iterator, LiveFetchUpdate) {
        try await within(30) {
            var it = iterator
            guard let update = try await it.next() else { throw CancellationError() }
            return (it, update)
        }
    }

    @Test func sameCoordinatorSavesComeAsChangeSetsInOrder() async throws {
        let directory = try TemporaryDirectory()
        let coordinator = try DocumentIncrementalStore.openCoordinator(url: URL(fileURLWithPath: directory.path("live.sqlite")), model: TestSupport.recipesModel)
        let writer = ObjectContext(coordinator: coordinator, name: "writer")
        let b = try Self.recipe(writer, "B")
        let d = try Self.recipe(writer, "D")

        let live = ObjectContext(coordinator: coordinator, name: "reader")
            .observe(FetchRequest(entityName: "Recipe", sortDescriptors: [Self.byName]))
        var (it, update) = try await Self.next(live.makeAsyncIterator())
        #expect(update.isInitial)
        #expect(update.objectIDs == [b, d])
        #expect(update.changes.inserted == [.init(b, at: 0), .init(d, at: 1)])

        // An insert between them.
        let c = try Self.recipe(writer, "C")
        (it, update) = try await Self.next(it)
        #expect(!update.isInitial)
        #expect(update.objectIDs == [b, c, d])
        #expect(update.changes == FetchResultsChangeSet(inserted: [.init(c, at: 1)]))

        // An edit that keeps the order.
        try writer.existingObject(with: d).setValue(.string("10 minutes"), forKey: "prepTime")
        try writer.save()
        (it, update) = try await Self.next(it)
        #expect(update.changes == FetchResultsChangeSet(updated: [.init(d, at: 2)]))
        #expect(update.rows[2].attributes["prepTime"] == .string("10 minutes"))

        // A save that does not touch the results yields nothing: the next element is the delete.
        let type = try writer.insert("RecipeType")
        try type.setValue(.string("Soup"), forKey: "name")
        try writer.save()

        try writer.delete(writer.existingObject(with: b))
        try writer.save()
        (it, update) = try await Self.next(it)
        #expect(update.changes == FetchResultsChangeSet(deleted: [.init(b, at: 0)]))
        #expect(update.objectIDs == [c, d])

        // A rename that changes the order is an update and a move.
        try writer.existingObject(with: c).setValue(.string("E"), forKey: "name")
        try writer.save()
        (it, update) = try await Self.next(it)
        #expect(update.objectIDs == [d, c])
        #expect(update.changes.updated == [.init(c, at: 1)])
        #expect(update.changes.moved.count == 1)
        #expect(update.changes.inserted.isEmpty && update.changes.deleted.isEmpty)
        _ = it
    }

    @Test func writesThroughAnotherOpeningOfTheFileAreSeenByPolling() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("shared.sqlite")
        let watcher = try DocumentIncrementalStore.openCoordinator(url: URL(fileURLWithPath: path), model: TestSupport.recipesModel)
        // A second coordinator on its own datastore connection pool: what another process does.
        let other = try DocumentIncrementalStore.openCoordinator(url: URL(fileURLWithPath: path), model: TestSupport.recipesModel)
        let writer = ObjectContext(coordinator: other, name: "other process")
        let a = try Self.recipe(writer, "A")

        let request = FetchRequest(entityName: "Recipe", predicate: try ObjectPredicate(format: "name BEGINSWITH %@", "A"),
                                   sortDescriptors: [Self.byName])
        let live = ObjectContext(coordinator: watcher).observe(request, pollInterval: .milliseconds(50))
        var (it, update) = try await Self.next(live.makeAsyncIterator())
        #expect(update.objectIDs == [a])

        let ab = try Self.recipe(writer, "AB")
        (it, update) = try await Self.next(it)
        #expect(update.changes == FetchResultsChangeSet(inserted: [.init(ab, at: 1)]))

        try writer.existingObject(with: a).setValue(.string("An overview"), forKey: "overview")
        try writer.save()
        (it, update) = try await Self.next(it)
        #expect(update.changes == FetchResultsChangeSet(updated: [.init(a, at: 0)]))

        // Outside the predicate: no element. The next one is the delete.
        _ = try Self.recipe(writer, "Zebra cake")
        // A negative check: the watcher (polling every 50 ms) gets a bounded window to see the
        // write outside the predicate and report nothing for it; the next element must be the
        // delete below.
        try await observationWindow(.milliseconds(200))
        try writer.delete(writer.existingObject(with: ab))
        try writer.save()
        (it, update) = try await Self.next(it)
        #expect(update.changes == FetchResultsChangeSet(deleted: [.init(ab, at: 1)]))
        #expect(update.objectIDs == [a])
        _ = it
    }

    @Test func cancellingTheTaskEndsTheWatch() async throws {
        let directory = try TemporaryDirectory()
        let coordinator = try DocumentIncrementalStore.openCoordinator(url: URL(fileURLWithPath: directory.path("c.sqlite")), model: TestSupport.recipesModel)
        let live = ObjectContext(coordinator: coordinator).observe(FetchRequest(entityName: "Recipe"))
        let (updates, delivered) = AsyncStream<Void>.makeStream()
        let task = Task {
            defer { delivered.finish() }
            var count = 0
            for try await _ in live {
                count += 1
                delivered.yield()
            }
            return count
        }
        // The first result has been delivered: the watch is running when it is cancelled.
        let first = try await Self.within(30) { await updates.first { _ in true } != nil }
        #expect(first)
        task.cancel()
        let count = try await Self.within(60) { try await task.value }
        #expect(count == 1)
    }
}
