import Foundation
import Observation
import ObjectSync
import Testing

/// A background actor that owns a context.
actor NoteImporter: ObjectActor {
    let context: ObjectContext

    init(container: ObjectContainer, name: String) {
        context = container.newContext(name: name)
    }

    /// Inserts and saves one note per text; only IDs and snapshots leave the actor.
    func add(_ texts: [String]) throws -> [ObjectID] {
        let notes = try texts.map { text in
            let note = try Note.insert(into: context)
            note.text = text
            return note
        }
        try context.save()
        return notes.map(\.objectID)
    }

    /// Renames the note with `id`, found by ID in the actor's own context.
    func rename(_ id: ObjectID, to text: String) throws {
        let note = try existing(Note.self, id: id)
        note.text = text
        try context.save()
    }

    /// The actor's notes as `Sendable` snapshots.
    func snapshots() throws -> [Note.Snapshot] {
        try context.fetch(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.text)])).map(\.snapshot)
    }
}

@Suite("Contexts and Swift concurrency")
struct ConcurrencyTests {
    @Test("two importer actors save side by side; another context takes their objects by ID")
    func actorsHandObjectsByID() async throws {
        let container = try ObjectContainer.inMemory(for: NotebookModelDefinition.self)
        let first = NoteImporter(container: container, name: "first")
        let second = NoteImporter(container: container, name: "second")
        async let a = first.add((0..<50).map { "a\($0)" })
        async let b = second.add((0..<50).map { "b\($0)" })
        let ids = try await a + b
        #expect(Set(ids).count == 100)

        let context = container.newContext(name: "reader")
        let notes = try ids.map { try Note(context.existingObject(with: $0)) }
        #expect(Set(notes.map(\.text)).count == 100)
        let snapshots = try await first.snapshots()
        #expect(snapshots.count == 100)
        #expect(snapshots.first?.text == "a0")
    }

    @Test("the main context serves main-actor code directly") @MainActor
    func mainContext() throws {
        let container = try ObjectContainer.inMemory(for: NotebookModelDefinition.self)
        let context = container.mainContext
        #expect(container.mainContext === context, "one main context per container")
        let note = try Note.insert(into: context)
        note.text = "From the main actor"
        try context.save()
        let other = container.newContext()
        #expect(try other.fetch(FetchDescriptor<Note>()).map(\.text) == ["From the main actor"])
        #expect(try context.fetchCount(FetchDescriptor<Note>()) == 1)
    }

    @Test("the main context takes in an actor's save on the main actor, and observers of its objects hear of it",
          .timeLimit(.minutes(1))) @MainActor
    func mainContextFollowsAnActor() async throws {
        let container = try ObjectContainer.inMemory(for: NotebookModelDefinition.self)
        let context = container.mainContext
        context.automaticallyMergesChanges = true
        let note = try Note.insert(into: context)
        note.text = "draft"
        try context.save()

        let (changes, changed) = AsyncStream<Void>.makeStream()
        withObservationTracking { _ = note.text } onChange: { changed.yield() }
        try await NoteImporter(container: container, name: "editor").rename(note.objectID, to: "final")
        // Nothing here uses the context: the merge is the main actor's own.
        for await _ in changes { break }
        #expect(note.text == "final")
    }

    @Test("a context that merges saves sees another context's save at its next use, not before")
    func mergesAtNextUse() throws {
        let container = try ObjectContainer.inMemory(for: NotebookModelDefinition.self)
        let reader = container.newContext(name: "reader")
        reader.automaticallyMergesChanges = true
        let writer = container.newContext(name: "writer")
        let note = try Note.insert(into: writer)
        note.text = "draft"
        try writer.save()
        let read = try Note(reader.existingObject(with: note.objectID))
        #expect(read.text == "draft")
        note.text = "final"
        try writer.save()
        #expect(read.text == "final")
        try writer.delete(note.object)
        try writer.save()
        reader.processPendingChanges()
        #expect(reader.registeredObject(for: note.objectID) == nil)
    }
}
