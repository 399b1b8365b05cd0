import DocumentStore
import Foundation
import InteropSupport
import ObjectSync
import Testing
import TestSupport

/// A container for a model that is not the recipes model (the Notebook model, compiled in by
/// EntityCodegenPlugin): in memory, in a file, and synced with another store file, under the
/// store's sync lock, seeding only an empty remote.
@Suite("Object containers for any model")
struct ObjectContainerTests {
    static func fileNote(_ text: String, in folder: Folder, pinned: Bool = false) throws {
        guard let context = folder.object.managedObjectContext else { throw ObjectGraphError.objectNotFound(folder.objectID) }
        let note = try Note.insert(into: context)
        note.text = text
        note.pinned = pinned
        folder.addToNotes(note)
    }

    static func errands(in context: ObjectContext) throws -> Folder {
        let folder = try Folder.insert(into: context)
        folder.name = "Errands"
        try fileNote("Water the plants", in: folder)
        try fileNote("Call Ann back", in: folder, pinned: true)
        return folder
    }

    @Test("an in-memory container fetches, counts and saves with no file")
    func inMemory() throws {
        let container = try ObjectContainer.inMemory(for: NotebookModelDefinition.self)
        #expect(container.url == nil)
        let context = container.newContext()
        _ = try Self.errands(in: context)
        try context.save()
        #expect(try Note.count(in: context) == 2)
        let folder = try #require(try Folder.fetch(in: context).first)
        #expect(folder.notes.map(\.text) == ["Water the plants", "Call Ann back"])
    }

    @Test("a file container keeps its objects across a reopen, and refuses a store of another model")
    func reopens() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes/notebook.sqlite")
        do {
            let container = try ObjectContainer(for: NotebookModelDefinition.self, url: url)
            let context = container.newContext()
            _ = try Self.errands(in: context)
            try context.save()
        }
        let again = try ObjectContainer(for: NotebookModelDefinition.self, url: url)
        let reopened = again.newContext()
        #expect(try Note.fetch(in: reopened).map(\.text).sorted() == ["Call Ann back", "Water the plants"])

        let other = try ModelVersionSet.load(contentsOf: #require(Bundle.module.url(forResource: "Notebook", withExtension: "xcdatamodeld")))
        #expect(other.current.versionHash == (try NotebookModelDefinition.model().versionHash))
        let text = try Self.failureText { _ = try ObjectContainer(model: Self.renamedModel(), url: url) }
        #expect(text.contains(url.path))
    }

    /// A model like Notebook's with one attribute renamed: a store written with Notebook's
    /// must refuse it.
    static func renamedModel() throws -> ObjectModel {
        var definition = NotebookModelDefinition.definition
        definition.entities[1].attributes[0].attributes["name"] = "body"
        return try ObjectModel.build(definition, name: "Renamed", path: "Renamed.xcdatamodel/contents")
    }

    static func failureText(_ body: () throws -> Void) throws -> String {
        do {
            try body()
        } catch {
            return "\(error)"
        }
        Issue.record("no error was thrown")
        return ""
    }

    @Test("two containers sync through a third store file; only the first seeds the empty remote")
    func syncThroughAFile() async throws {
        let directory = try TemporaryDirectory()
        let remote = directory.file("shared.sqlite")
        let first = try ObjectContainer(for: NotebookModelDefinition.self, url: directory.file("first.sqlite"))
        let second = try ObjectContainer(for: NotebookModelDefinition.self, url: directory.file("second.sqlite"))
        var options = SyncOptions()
        options.seed = { context in _ = try Self.errands(in: context) }

        let seeded = try await first.sync(with: remote, options: options)
        #expect(seeded.seeded)
        #expect(seeded.pushed >= 3)
        let joined = try await second.sync(with: remote, options: options)
        #expect(!joined.seeded, "the remote was not empty: no second copy of the seed")
        #expect(joined.pulled >= 3)
        let secondContext = second.newContext()
        #expect(try Note.count(in: secondContext) == 2)
        #expect(try Folder.count(in: secondContext) == 1)

        let folder = try #require(try Folder.fetch(in: secondContext).first)
        try Self.fileNote("Buy bread", in: folder)
        try secondContext.save()
        try await second.sync(with: remote)
        let back = try await first.sync(with: remote)
        #expect(back.pulled >= 1)
        let firstContext = first.newContext()
        let firstFolder = try #require(try Folder.fetch(in: firstContext).first)
        #expect(firstFolder.notes.map(\.text).sorted() == ["Buy bread", "Call Ann back", "Water the plants"])
    }

    @Test("a second sync of the same store file waits for the lock or fails naming it")
    func oneSyncAtATime() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notebook.sqlite")
        let container = try ObjectContainer(for: NotebookModelDefinition.self, url: url)
        let held = try SyncLock.tryAcquire(forStore: url)
        await #expect(throws: ObjectContainerError.self) { try await container.sync(with: directory.file("remote.sqlite")) }
        held.release()
        let result = try await container.sync(with: directory.file("remote.sqlite"))
        #expect(result.refused.isEmpty)
    }
}

/// The same container against a live CouchDB (the one `.ci/run` starts).
@Suite("Object containers against a live CouchDB",
       .enabled(if: LiveCouchDB.isConfigured, "COUCHDB_URL is not set: no live CouchDB to sync with"))
struct ObjectContainerCouchDBTests {
    @Test("two in-memory containers sync both ways through CouchDB")
    func bothWays() async throws {
        let couch = try await LiveCouchDB.connect()
        let name = try await couch.makeDatabase("objectsync")
        defer { Task { await couch.deleteDatabase(name) } }
        let remote = try #require(URL(string: couch.databaseURL(name)))

        let phone = try ObjectContainer.inMemory(for: NotebookModelDefinition.self)
        let laptop = try ObjectContainer.inMemory(for: NotebookModelDefinition.self)
        let phoneContext = phone.newContext()
        let laptopContext = laptop.newContext()
        _ = try ObjectContainerTests.errands(in: phoneContext)
        try phoneContext.save()
        try await phone.sync(with: remote)
        try await laptop.sync(with: remote)
        let folder = try #require(try Folder.fetch(in: laptopContext).first)
        folder.name = "Chores"
        try laptopContext.save()
        try await laptop.sync(with: remote)
        try await phone.sync(with: remote)
        #expect(try Folder.fetch(in: phoneContext).map(\.name) == ["Chores"])
    }
}
