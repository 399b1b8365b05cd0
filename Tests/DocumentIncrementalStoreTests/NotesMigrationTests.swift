import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore
import TestSupport

@Suite("Opening a Recipes 2 store with Recipes 3 (encrypted notes)")
struct NotesMigrationTests {
    @Test func recipesVersion2StoreKeepsItsDataAndTakesNotes() throws {
        let v2 = try #require(TestSupport.recipesVersions.versions["Recipes 2"])
        let v3 = try #require(TestSupport.recipesVersions.versions["Recipes 3"])
        #expect(TestSupport.recipesVersions.currentVersionName == "Recipes 3")
        let dir = try TemporaryDirectory()
        let created = Date(timeIntervalSince1970: 1_700_000_000)
        let recipeID: ObjectID
        let ingredientID: ObjectID
        do {
            let stack = try DocumentStack(model: v2, directory: dir)
            let ctx = stack.context()
            let recipe = try ctx.insert("Recipe")
            try recipe.setValue(.string("Old soup"), forKey: "name")
            try recipe.setValue(.string("Warm"), forKey: "overview")
            try recipe.setValue(.date(created), forKey: "createdAt")
            let line = try ctx.insert("Ingredient")
            try line.setValue(.string("Leek"), forKey: "name")
            try recipe.addObject(line, toKey: "ingredients")
            try ctx.save()
            recipeID = recipe.objectID
            ingredientID = line.objectID
        }
        let stack = try DocumentStack(model: v3, directory: dir)
        #expect(try stack.store.documentStore.get(id: "CDTISMetaData")?.body == ModelMetadataDocument.body(for: v3))
        try stack.store.unlock(password: "pw")
        let ctx = stack.context()
        let recipe = try ctx.existingObject(with: recipeID)
        #expect(try recipe.string("name") == "Old soup")
        #expect(try recipe.string("overview") == "Warm")
        #expect(try recipe.value(forKey: "createdAt") == .date(created))
        #expect(try recipe.objects(forKey: "ingredients").map(\.objectID) == [ingredientID])
        #expect(try recipe.value(forKey: "notes") == .null)
        try recipe.setValue(.string("family secret"), forKey: "notes")
        try ctx.save()
        let reopened = try DocumentStack(model: v3, directory: dir)
        try reopened.store.unlock(password: "pw")
        let readContext = reopened.context()
        #expect(try readContext.existingObject(with: recipeID).string("notes") == "family secret")
    }
}
