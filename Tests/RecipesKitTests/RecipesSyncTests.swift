import DocumentStore
import DocumentIncrementalStore
import Foundation
import Testing
@testable import RecipesKit
import RecipesSyncKit
import TestSupport

@Suite("Recipes sync between store files")
struct RecipesSyncTests {
    @Test("a recipe reaches another store; pending changes drop to zero; the report is kept")
    func roundTrip() async throws {
        let directory = try TemporaryDirectory()
        let remote = directory.file("remote.sqlite")
        let a = try RecipesStore(url: directory.file("a.sqlite"))
        let b = try RecipesStore(url: directory.file("b.sqlite"))
        try a.container.newBook().add(RecipeDraft(name: "Pho", type: "Soup", ingredients: [IngredientInput(amount: "1 l", name: "broth")]))
        #expect(try SyncStatusRecord.pendingChangeCount(of: a.documentStore) > 0)

        let pushed = try await a.sync(with: remote).run()
        #expect(pushed.succeeded && pushed.pushed >= 3 && pushed.steps.map(\.name) == ["pull", "resolve", "push", "refresh"])
        #expect(try SyncStatusRecord.pendingChangeCount(of: a.documentStore) == 0)
        #expect(try SyncStatusRecord.stored(in: a.documentStore).lastSync == pushed)

        let pulled = try await b.sync(with: remote).run(direction: .pullOnly)
        #expect(pulled.succeeded && pulled.pulled >= 3 && pulled.pushed == 0)
        let pho = try b.container.newBook().details(named: "Pho")
        #expect(pho.type == "Soup" && pho.ingredients.map(\.name) == ["broth"])
    }

    @Test("conflicting edits resolve the same way on both stores; --prefer local keeps this machine's value")
    func conflicts() async throws {
        let directory = try TemporaryDirectory()
        let remote = directory.file("remote.sqlite")
        let a = try RecipesStore(url: directory.file("a.sqlite"))
        let b = try RecipesStore(url: directory.file("b.sqlite"))
        try a.container.newBook().add(RecipeDraft(name: "Pho", overview: "start"))
        _ = try await a.sync(with: remote).run()
        _ = try await b.sync(with: remote).run()
        try a.container.newBook().edit(named: "Pho", RecipeEdit(overview: "from A"))
        try b.container.newBook().edit(named: "Pho", RecipeEdit(overview: "from B"))
        _ = try await a.sync(with: remote).run()
        let resolving = try await b.sync(with: remote).run(prefer: .local)
        #expect(resolving.conflictsResolved == 1)
        _ = try await a.sync(with: remote).run()
        for store in [a, b] {
            let fresh = store.container.newContext()
            let book = RecipeBook(context: fresh)
            #expect(try book.details(of: try book.recipe(named: "Pho")).overview == "from B")
            #expect(try StoreInspection.conflictedDocumentCount(store.documentStore) == 0)
        }
    }

    @Test("--prefer local takes only what this machine changed; what only the remote changed is kept")
    func preferLocalKeepsRemoteOnlyChanges() async throws {
        let directory = try TemporaryDirectory()
        let remote = directory.file("remote.sqlite")
        let a = try RecipesStore(url: directory.file("a.sqlite"))
        let b = try RecipesStore(url: directory.file("b.sqlite"))
        try a.container.newBook().add(RecipeDraft(name: "Pho", overview: "start", prepTime: "1 h"))
        _ = try await a.sync(with: remote).run()
        _ = try await b.sync(with: remote).run()
        try a.container.newBook().edit(named: "Pho", RecipeEdit(overview: "from A", prepTime: "2 h"))
        try b.container.newBook().edit(named: "Pho", RecipeEdit(overview: "from B"))
        _ = try await a.sync(with: remote).run()
        let resolving = try await b.sync(with: remote).run(prefer: .local)
        #expect(resolving.conflictsResolved == 1)
        _ = try await a.sync(with: remote).run()
        for store in [a, b] {
            let book = RecipeBook(context: store.container.newContext())
            let details = try book.details(of: try book.recipe(named: "Pho"))
            #expect(details.overview == "from B")
            #expect(details.prepTime == "2 h")
            #expect(try StoreInspection.conflictedDocumentCount(store.documentStore) == 0)
        }
    }

    @Test("--prefer local keeps this machine's edit made before a relaunch: the store knows which revisions it wrote",
          arguments: [("from A", "from B"), ("A1", "B1"), ("a: later", "b: earlier"), ("Apfel", "Birne")])
    func preferLocalAfterARelaunch(texts: (a: String, b: String)) async throws {
        let directory = try TemporaryDirectory()
        let remote = directory.file("remote.sqlite")
        let a = try RecipesStore(url: directory.file("a.sqlite"))
        try a.container.newBook().add(RecipeDraft(name: "Pho", overview: "start"))
        _ = try await a.sync(with: remote).run()
        do {
            // This machine edits and quits before syncing.
            let b = try RecipesStore(url: directory.file("b.sqlite"))
            _ = try await b.sync(with: remote).run()
            try b.container.newBook().edit(named: "Pho", RecipeEdit(overview: texts.b))
        }
        try a.container.newBook().edit(named: "Pho", RecipeEdit(overview: texts.a))
        _ = try await a.sync(with: remote).run()
        // Relaunched, it syncs preferring its own edit, whichever revision CouchDB's rule picks.
        let b = try RecipesStore(url: directory.file("b.sqlite"))
        let resolving = try await b.sync(with: remote).run(prefer: .local)
        #expect(resolving.conflictsResolved == 1)
        _ = try await a.sync(with: remote).run()
        for store in [a, b] {
            let book = RecipeBook(context: store.container.newContext())
            #expect(try book.details(of: try book.recipe(named: "Pho")).overview == texts.b)
            #expect(try StoreInspection.conflictedDocumentCount(store.documentStore) == 0)
        }
    }

    @Test("a held lock refuses a second sync; a failed step is reported and cancels the rest")
    func lockAndFailure() async throws {
        let directory = try TemporaryDirectory()
        let a = try RecipesStore(url: directory.file("a.sqlite"))
        let sync = try a.sync(with: directory.file("remote.sqlite"))
        let held = try SyncLock.tryAcquire(forStore: a.url)
        await #expect(throws: SyncLockError.self) { try await sync.run() }
        held.release()

        let unreachable = try a.sync(with: URL(string: "http://127.0.0.1:9/recipes")!)
        let report = try await unreachable.run()
        #expect(report.result == .failed && report.error?.message.hasPrefix("pull failed") == true)
        // Nothing listens on port 9: a library caller can tell "offline" from the error's kind.
        #expect(report.error?.kind == .unreachable)
        #expect(report.error?.isTransient == true)
        #expect(report.steps.map(\.state) == [.failed, .cancelled, .cancelled, .cancelled])
        #expect(report.steps.map(\.error?.kind) == [.unreachable, .cancelled, .cancelled, .cancelled])
        #expect(report.finishedAt >= report.startedAt)
    }
}
