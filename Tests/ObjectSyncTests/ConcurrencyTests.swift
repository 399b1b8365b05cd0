import Foundation
import ObjectSync
import Testing

/// A background actor that owns a context and runs on its queue.
actor NoteImporter: ObjectActor {
    nonisolated let context: ObjectContext

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
        #expect(context.concurrencyType == .mainQueue)
        let note = try Note.insert(into: context)
        note.text = "From the main actor"
        try context.save()
        #expect(try container.viewContext.fetch(FetchDescriptor<Note>()).map(\.text) == ["From the main actor"])
        #expect(try context.fetchCount(FetchDescriptor<Note>()) == 1)
    }
}
