import Foundation
import ObjectSync
import Testing
import TestSupport

/// Typed observation: updates of `Sendable` snapshots, from this process and from another
/// writer of the same store file.
@Suite("Typed observation")
struct TypedObservationTests {
    static let byText = FetchDescriptor<Note>(sortBy: [SortDescriptor(\.text)])

    @Test("an observer iterating on another task gets snapshots, then the change set of a save")
    func snapshotsAcrossTasks() async throws {
        let container = try ObjectContainer.inMemory(for: NotebookModelDefinition.self)
        let context = container.newContext()
        let first = try Note.insert(into: context)
        first.text = "Water the plants"
        try context.save()

        let updates = try context.observe(Self.byText)
        let (firstSeen, signal) = AsyncStream<Void>.makeStream()
        let watcher = Task { () -> [LiveResults<Note>.Update] in
            var iterator = updates.makeAsyncIterator()
            var seen: [LiveResults<Note>.Update] = []
            if let initial = try await iterator.next() { seen.append(initial) }
            signal.yield()
            if let change = try await iterator.next() { seen.append(change) }
            return seen
        }
        // Change only once the watcher holds the current results.
        for await _ in firstSeen { break }
        let pinned = try Note.insert(into: context)
        pinned.text = "Call Ann back"
        pinned.pinned = true
        try context.save()

        let seen = try await watcher.value
        #expect(seen.map { $0.results.map(\.text) } == [["Water the plants"], ["Call Ann back", "Water the plants"]])
        #expect(seen.map(\.isInitial) == [true, false])
        let last = try #require(seen.last)
        #expect(last.results.first?.pinned == true)
        #expect(last.results.first?.objectID == pinned.objectID)
        #expect(pinned.snapshot == last.results.first)
    }

    @Test("a save through another container on the same file (another writer) reaches the observer")
    func anotherWriter() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notebook.sqlite")
        let reader = try ObjectContainer(for: NotebookModelDefinition.self, url: url)
        let writer = try ObjectContainer(for: NotebookModelDefinition.self, url: url)
        var updates = try reader.newContext().observe(Self.byText, pollInterval: .milliseconds(20)).makeAsyncIterator()
        let initial = try #require(try await updates.next())
        #expect(initial.results.isEmpty)

        let writing = writer.newContext()
        let note = try Note.insert(into: writing)
        note.text = "Buy bread"
        try writing.save()
        let next = try #require(try await updates.next())
        #expect(next.results.map(\.text) == ["Buy bread"])
        #expect(next.changes.inserted.map(\.objectID) == [note.objectID])
    }
}
