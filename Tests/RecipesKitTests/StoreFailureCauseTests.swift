import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import RecipesKit
import TestSupport

/// A datastore failure met by a RecipesKit call can be told apart by type, through every
/// layer it crossed, while the message stays the one-line cause and fix.
@Suite("RecipesKit store failures keep their cause")
struct StoreFailureCauseTests {
    @Test func aDatastoreFailureUnderAnImportIsRecoveredAsDocumentStoreError() throws {
        let directory = try TemporaryDirectory()
        let store = try RecipesStore(url: directory.file("book.sqlite"))
        let set = SampleSet(name: "one", recipes: [SampleRecipe(name: "Soup", ingredients: [SampleIngredient(amount: nil, name: "water")])])
        var caught: RecipesError?
        // Transactions do not nest: the import's own transaction is refused by the store.
        try store.container.coordinator.performAtomically {
            do throws(RecipesError) { try SampleImporter(context: store.container.newContext(name: "import")).importSets([set]) } catch { caught = error }
        }
        let error = try #require(caught)
        guard case .store(let message, let cause?) = error else {
            Issue.record("expected RecipesError.store with a cause, got \(error)")
            return
        }
        // Layer by layer: the object graph's error, the store's failure, the datastore's error.
        guard let graphError = cause as? ObjectGraphError, case .store(.storeFailure(let storeCause)) = graphError else {
            Issue.record("expected ObjectGraphError.store(.storeFailure), got \(cause)")
            return
        }
        let datastore = try #require(storeCause as? DocumentStoreError)
        guard case .storage(let text) = datastore else {
            Issue.record("expected a storage failure, got \(datastore)")
            return
        }
        #expect(text.contains("a transaction is already open"))
        // And in one step.
        #expect(error.rootCause as? DocumentStoreError == datastore)
        #expect(message == "datastore: \(datastore.description)")
        #expect(error.description == message)
        #expect(try store.container.newBook().list().isEmpty)
    }

    @Test func openingAFileThatIsNotAStoreKeepsTheDatastoreError() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("not-a-store.sqlite")
        try Data(repeating: UInt8(ascii: "x"), count: 4096).write(to: url)
        do {
            _ = try RecipesStore(url: url)
            Issue.record("a file that is not SQLite opened")
        } catch {
            // SQLITE_NOTADB, with SQLite's code kept.
            guard case .sqlite(let failure) = error.rootCause as? DocumentStoreError else {
                Issue.record("expected a DocumentStoreError.sqlite cause, got \(String(describing: error.rootCause))")
                return
            }
            #expect(failure.resultCode == 26)
            #expect(error.description.hasPrefix("cannot open the store \(url.path): "))
            // The datastore's sentence names the fix; nothing is added after it.
            #expect(error.description.hasSuffix("Choose another file, or move this one away and start a new store."))
        }
    }

    @Test func errorsWithoutACauseHaveNoRootCause() {
        #expect(RecipesError.recipeNotFound("Soup").rootCause == nil)
        #expect(RecipesError.store("local record x does not encode as a JSON object").rootCause == nil)
    }

    @Test func storeErrorsCompareTheirCauses() {
        let cause = DocumentStoreError.notFound(id: "a")
        #expect(RecipesError.store("failed", cause: cause) == .store("failed", cause: DocumentStoreError.notFound(id: "a")))
        #expect(RecipesError.store("failed", cause: cause) != .store("failed", cause: DocumentStoreError.notFound(id: "b")))
        #expect(RecipesError.store("failed", cause: cause) != .store("failed"))
        #expect(RecipesError.recipeNotFound("a") == .recipeNotFound("a"))
        #expect(RecipesError.recipeNotFound("a") != .invalidImage(path: "a"))
    }

    @Test("a save refused because the objects changed meanwhile is told apart from other failures")
    func concurrentChangeIsRecognised() throws {
        let conflict = RecipesError.store("save conflicts", cause: ObjectGraphError.mergeConflicts([]))
        #expect(conflict.isConcurrentChange)
        let wrapped = RecipesError.store("outer", cause: RecipesError.store("inner", cause: IncrementalStoreError.conflicts([])))
        #expect(wrapped.isConcurrentChange)
        #expect(!RecipesError.store("disk full", cause: DocumentStoreError.storage("disk full")).isConcurrentChange)
        #expect(!RecipesError.recipeNotFound("soup").isConcurrentChange)
    }
}
