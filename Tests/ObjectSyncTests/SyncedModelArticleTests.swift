import Foundation
import InteropSupport
import ObjectSync
import Testing
import TestSupport

/// Runs the lines of the ObjectSync article "Your Model, Synced"
/// (`Sources/ObjectSync/Documentation.docc/YourModelSynced.md`) on the Notebook model, so the
/// article's code keeps compiling and doing what it says. Change both together. The remote is
/// the live CouchDB of the run when `COUCHDB_URL` names one, a store file otherwise.
@Suite("Documentation: your model, synced")
struct SyncedModelArticleTests {
    @Test func theFifteenLines() async throws {
        let directory = try TemporaryDirectory()
        let storeURL = directory.file("notebook.sqlite")
        var couch: (LiveCouchDB, String)?
        if LiveCouchDB.isConfigured {
            let live = try await LiveCouchDB.connect()
            couch = (live, try await live.makeDatabase("article"))
        }
        defer { if let (live, name) = couch { Task { await live.deleteDatabase(name) } } }
        let remoteURL = try couch.map { try #require(URL(string: $0.0.databaseURL($0.1))) } ?? directory.file("remote.sqlite")
        var printed: [[String]] = []
        func print(_ lines: [String]) { printed.append(lines) }

        // The article's lines, as written there.
        let container = try ObjectContainer(for: NotebookModelDefinition.self, url: storeURL)
        let context = container.newContext()
        let errands = try Folder.insert(into: context)
        errands.name = "Errands"
        let notes = FetchDescriptor<Note>(predicate: #Predicate { $0.folder?.name == "Errands" },
                                          sortBy: [SortDescriptor(\.text)], fetchLimit: 20)
        for try await update in try context.observe(notes) {
            print(update.results.map(\.text))
            guard update.isInitial else { break }
            let note = try Note.insert(into: context)
            note.text = "Buy bread"
            note.folder = errands
            try context.save()
        }
        try await container.sync(with: remoteURL)

        #expect(printed == [[], ["Buy bread"]])
        #expect(try context.fetch(notes).map(\.text) == ["Buy bread"])
        #expect(try context.fetchCount(notes) == 1)
        // The other side of the sync: a second store pulls what the first pushed.
        let other = try ObjectContainer.inMemory(for: NotebookModelDefinition.self)
        let result = try await other.sync(with: remoteURL)
        #expect(result.pulled == 3)
        let otherContext = other.newContext()
        #expect(try otherContext.fetch(notes).map(\.text) == ["Buy bread"])
    }
}
