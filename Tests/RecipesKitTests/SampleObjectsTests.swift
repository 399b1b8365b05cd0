import Foundation
import Testing
@testable import RecipesKit
import TestSupport

@Suite("Sample objects")
struct SampleObjectsTests {
    @Test("the Core Data fixture becomes 50 objects with both sides of every relationship")
    func appleStore() throws {
        let directory = try TemporaryDirectory()
        let set = try CoreDataStoreReader().read(storeAt: try Fixtures.copyOfAppleStore(in: directory))
        let objects = SampleObjects(set)
        #expect(objects.types.count == 5 && objects.recipes.count == 7 && objects.ingredients.count == 31 && objects.images.count == 7)
        #expect(Set(objects.documentIDs).count == 50)

        let recipesByID = Dictionary(uniqueKeysWithValues: objects.recipes.map { ($0.id, $0) })
        for type in objects.types {
            for recipeID in type.recipeIDs { #expect(recipesByID[recipeID]?.typeID == type.id) }
        }
        #expect(objects.types.first { $0.name == "Dessert" }?.recipeIDs.count == 5)
        #expect(objects.types.first { $0.name == "Soup" }?.recipeIDs.isEmpty == true)
        for image in objects.images { #expect(recipesByID[image.recipeID]?.imageID == image.id) }
        for ingredient in objects.ingredients {
            let recipe = try #require(recipesByID[ingredient.recipeID])
            #expect(recipe.ingredientIDs[ingredient.displayOrder] == ingredient.id)
        }
        let cake = try #require(objects.recipes.first)
        #expect(cake.name == "Chocolate Cake" && cake.creationDate == SampleIdentity.sampleEpoch)
        #expect(cake.id == SampleIdentity.recipeID(set: "Recipes", recipe: "Chocolate Cake"))
        #expect(objects.ingredients.first { $0.recipeID == cake.id && $0.displayOrder == 7 }?.name == "Eggs")
    }

    @Test("flattening the same set twice gives identical objects; another set name gives other IDs")
    func deterministic() throws {
        let set = try #require(try BundledSampleSets.load(named: "classics"))
        #expect(SampleObjects(set) == SampleObjects(set))
        var renamed = set
        renamed.name = "classics-2"
        #expect(Set(SampleObjects(set).documentIDs).isDisjoint(with: SampleObjects(renamed).documentIDs))
    }
}
