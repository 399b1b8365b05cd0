import Foundation
import Observation
import ObjectGraph
import Synchronization
import Testing

/// The generated types' plain properties: key paths to them, Observation of them, and what
/// a read or write that cannot be served does (no trap, no throw: the next save says so).
@Suite("Typed properties")
struct TypedPropertyTests {
    /// Counts how often an observation fired.
    final class Fired: Sendable {
        let count = Atomic<Int>(0)
        func fire() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// Tracks `read` once; the returned counter goes up when something it read changes.
    static func observe(_ read: () -> Void) -> Fired {
        let fired = Fired()
        withObservationTracking(read) { fired.fire() }
        return fired
    }

    static func savedBook(_ context: ObjectContext, title: String = "Dune") throws -> Book {
        let book = try Book.insert(into: context)
        book.title = title
        book.uuid = UUID()
        try context.save()
        return book
    }

    @Test("properties are key paths: map, sort and the table typed queries use")
    func keyPaths() throws {
        let context = try GeneratedEntityTests.context()
        let books = try ["Emma", "Dune", "Kim"].map { try Self.savedBook(context, title: $0) }
        #expect(books.map(\.title).sorted() == ["Dune", "Emma", "Kim"])
        #expect(Book.propertyKeys[\Book.title] == "title")
        #expect(Book.propertyKeys[\Book.sequel] == "sequel")
        #expect(Book.propertyKeys[\Book.authors] == "authors")
        #expect(Book.propertyKeys.count == Set(Book.propertyKeys.values).count)
    }

    @Test("observing a property fires on its change, not on another property's")
    func observesOneProperty() throws {
        let context = try GeneratedEntityTests.context()
        let book = try Self.savedBook(context)
        let title = Self.observe { _ = book.title }
        let pages = Self.observe { _ = book.pages }
        book.title = "Dune Messiah"
        #expect(title.value == 1)
        #expect(pages.value == 0)
        book.pages = 256
        #expect(pages.value == 1)
    }

    @Test("a relationship observed on one side fires when the other side changes it")
    func observesInverse() throws {
        let context = try GeneratedEntityTests.context()
        let first = try Self.savedBook(context)
        let second = try Self.savedBook(context, title: "Dune Messiah")
        let prequel = Self.observe { _ = second.prequel }
        first.sequel = second
        #expect(prequel.value == 1)
        #expect(second.prequel == first)
    }

    @Test("another context's save, merged, reaches an observer of this context's object")
    func observesMergedSave() async throws {
        let context = try GeneratedEntityTests.context()
        let book = try Self.savedBook(context)
        let other = ObjectContext(coordinator: context.coordinator, name: "other")
        var saves = other.saves().makeAsyncIterator()

        let observed = Self.observe { _ = book.title }
        let there = try Book(other.existingObject(with: book.objectID))
        there.title = "Children of Dune"
        try other.save()
        let saved = try #require(await saves.next())
        context.mergeChanges(from: saved)
        #expect(observed.value == 1)
        #expect(book.title == "Children of Dune")
    }

    @Test("rollback and refresh tell observers the values changed back")
    func observesRollback() throws {
        let context = try GeneratedEntityTests.context()
        let book = try Self.savedBook(context)
        book.title = "Draft"
        let observed = Self.observe { _ = book.title }
        context.rollback()
        #expect(observed.value == 1)
        #expect(book.title == "Dune")
    }

    @Test("an object deleted elsewhere reads its last known values; a fault reads empty and the next save throws the failure, once")
    func deletedElsewhere() throws {
        let context = try GeneratedEntityTests.context()
        let loaded = try Self.savedBook(context)
        let faulted = try Self.savedBook(context, title: "Emma")
        try context.refresh(faulted.object, mergeChanges: false)
        #expect(faulted.object.isFault)

        let other = ObjectContext(coordinator: context.coordinator, name: "other")
        try other.delete(other.existingObject(with: loaded.objectID))
        try other.delete(other.existingObject(with: faulted.objectID))
        try other.save()

        #expect(loaded.title == "Dune", "values already loaded stay readable")
        #expect(faulted.title == "", "nothing was known: the unset value")
        #expect(faulted.object.isMissingFromStore)

        let kim = try Book.insert(into: context)
        kim.title = "Kim"
        kim.uuid = UUID()
        let failure = #expect(throws: ObjectGraphError.self) { try context.save() }
        guard case .deferredAccessFailure(let id, let key, let cause)? = failure else {
            Issue.record("expected the deferred failure, got \(String(describing: failure))")
            return
        }
        #expect(id == faulted.objectID)
        #expect(key == "title")
        #expect("\(cause)".contains("no longer exists"))
        try context.save()
        #expect(try Book.count(in: context) == 1)
    }

    @Test("a write that cannot be made is dropped and reported by the next fetch")
    func droppedWrite() throws {
        let context = try GeneratedEntityTests.context()
        let other = try GeneratedEntityTests.context()
        let book = try Self.savedBook(context)
        let stranger = try Self.savedBook(other, title: "Emma")
        book.sequel = stranger
        #expect(book.sequel == nil)
        let failure = #expect(throws: ObjectGraphError.self) { try Book.fetch(in: context) }
        guard case .deferredAccessFailure(_, "sequel", .differentContext)? = failure else {
            Issue.record("expected the deferred failure, got \(String(describing: failure))")
            return
        }
        #expect(try Book.fetch(in: context).count == 1)
    }
}
