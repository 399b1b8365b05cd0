import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore
import DocumentFormat

/// A replica holds what has replicated so far: a recipe can arrive before its image (a pull
/// interrupted between them, or a selective one). Editing it meanwhile must work.
@Suite("Partial replication")
struct PartialReplicationTests {
    /// A recipe with an image and a type on `remote`; only the recipe replicated to `local`.
    private func recipeWithoutItsImage() throws -> (local: DocumentStack, remote: DocumentStack, recipe: ObjectID, image: ObjectID, type: ObjectID) {
        let local = try DocumentStack(), remote = try DocumentStack()
        let ctx = remote.context("remote")
        let recipe = try ctx.insert("Recipe")
        try recipe.setValue(.string("Soup"), forKey: "name")
        let image = try ctx.insert("Image")
        try image.setValue(.data(Data([1, 2, 3])), forKey: "image")
        try recipe.setObject(image, forKey: "image")
        let type = try ctx.insert("RecipeType")
        try type.setValue(.string("Starter"), forKey: "name")
        try recipe.setObject(type, forKey: "type")
        try ctx.save()
        try TestSupport.replicate(recipe.objectID.referenceString, from: remote.store.documentStore, to: local.store.documentStore)
        return (local, remote, recipe.objectID, image.objectID, type.objectID)
    }

    @Test func aRecipeWhoseImageHasNotArrivedCanBeEditedAndKeepsTheReference() throws {
        let s = try recipeWithoutItsImage()
        let ctx = s.local.context("local")
        let recipe = try ctx.existingObject(with: s.recipe)
        #expect(try recipe.object(forKey: "image") == nil, "an image not replicated yet reads as absent")
        try recipe.setValue(.string("Tomato soup"), forKey: "name")
        try ctx.save()
        let stored = try #require(try s.local.store.documentStore.get(id: s.recipe.referenceString))
        #expect(stored.body["name"] == "Tomato soup")
        #expect(stored.body["image"] == .string(s.image.referenceString), "the reference to the image is kept untouched")
        #expect(stored.body["type"] == .string(s.type.referenceString))

        // The image and the type arrive: the recipe shows them.
        try TestSupport.replicate(s.image.referenceString, from: s.remote.store.documentStore, to: s.local.store.documentStore)
        try TestSupport.replicate(s.type.referenceString, from: s.remote.store.documentStore, to: s.local.store.documentStore)
        try s.local.store.processExternalChanges()
        let fresh = s.local.context("after")
        let arrived = try fresh.existingObject(with: s.recipe)
        #expect(try arrived.object(forKey: "image")?.objectID == s.image)
        #expect(try arrived.object(forKey: "image")?.value(forKey: "image") == .data(Data([1, 2, 3])))
        #expect(try arrived.object(forKey: "type")?.string("name") == "Starter")
        #expect(try arrived.string("name") == "Tomato soup")
    }

    @Test func anImageNotArrivedYetCanBeReplacedAndItsRecipeDeleted() throws {
        let s = try recipeWithoutItsImage()
        let ctx = s.local.context("local")
        let recipe = try ctx.existingObject(with: s.recipe)
        let photo = try ctx.insert("Image")
        try photo.setValue(.data(Data([9])), forKey: "image")
        try recipe.setObject(photo, forKey: "image")
        try ctx.save()
        #expect(try s.local.store.documentStore.get(id: s.recipe.referenceString)?.body["image"] == .string(photo.objectID.referenceString))

        let other = try recipeWithoutItsImage()
        let octx = other.local.context("local")
        try octx.delete(try octx.existingObject(with: other.recipe))
        try octx.save()
        #expect(try other.local.store.documentStore.get(id: other.recipe.referenceString) == nil)
    }
}
