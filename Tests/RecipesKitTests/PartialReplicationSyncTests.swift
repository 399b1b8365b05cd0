import DocumentStore
import DocumentIncrementalStore
import Foundation
import Testing
@testable import RecipesKit
import RecipesSyncKit
import TestSupport
import InteropSupport
import DocumentFormat
import ObjectGraph

/// A sync can bring a recipe before its image (the image's attachment travels in a request of
/// its own, and a pull can stop between them). The recipe is edited meanwhile, and shows its
/// image once that arrives.
@Suite("Recipes sync: a recipe before its image")
struct PartialReplicationSyncTests {
    @Test("a recipe whose image has not arrived is edited; the image shows once it arrives")
    func editBeforeTheImageArrives() async throws {
        let directory = try TemporaryDirectory()
        let a = try RecipesStore(url: directory.file("a.sqlite"))
        let book = a.container.newBook()
        try book.add(RecipeDraft(name: "Pho", type: "Soup", image: Fixtures.pngBytes))
        let recipe = try book.recipe(named: "Pho")
        let recipeID = recipe.objectID.referenceString
        let imageID = try #require(try recipe.image?.objectID.referenceString)

        // The remote holds everything but the image, as after a pull cut short.
        let remoteURL = directory.file("remote.sqlite")
        do {
            let remote = try DocumentStore(path: remoteURL.path)
            var ids: [String] = []
            try a.documentStore.forEachChange { ids.append($0.id) }
            for id in ids where id != imageID { try DocumentCopy.copy(id, from: a.documentStore, to: remote) }
            try remote.close()
        }
        let b = try RecipesStore(url: directory.file("b.sqlite"))
        let pulled = try await b.sync(with: remoteURL).run()
        #expect(pulled.succeeded, "\(pulled)")
        let before = try b.container.newBook().details(named: "Pho")
        #expect(before.image == nil && before.type == "Soup")
        try b.container.newBook().edit(named: "Pho", RecipeEdit(overview: "while the image travels"))
        let stored = try #require(try b.documentStore.get(id: recipeID))
        #expect(stored.body["image"] == .string(imageID), "the reference to the image is kept")

        // The image reaches the remote, and the next sync brings it.
        do {
            let remote = try DocumentStore(path: remoteURL.path)
            try DocumentCopy.copy(imageID, from: a.documentStore, to: remote)
            try remote.close()
        }
        let completed = try await b.sync(with: remoteURL).run()
        #expect(completed.succeeded, "\(completed)")
        let bBook = RecipeBook(context: b.container.newContext())
        let after = try bBook.details(of: try bBook.recipe(named: "Pho"))
        #expect(after.overview == "while the image travels")
        #expect(after.image?.bytes == Fixtures.pngBytes.count)
    }
}
