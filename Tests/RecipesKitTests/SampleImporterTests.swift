import Foundation
import ObjectGraph
import Testing
@testable import RecipesKit
import TestSupport

@Suite("Sample importer")
struct SampleImporterTests {
    /// The document IDs of every object the container's store holds.
    static func storedIDs(_ container: ObjectContainer) throws -> Set<String> {
        var ids = Set<String>()
        for entity in container.model.entities where entity.superentityName == nil {
            let found = try container.newContext().fetchObjectIDs(FetchRequest(entityName: entity.name))
            ids.formUnion(found.map(\.referenceString))
        }
        return ids
    }

    @Test("importing the Core Data fixture creates its 50 objects with their deterministic IDs; again changes nothing")
    func appleStore() throws {
        let directory = try TemporaryDirectory()
        let set = try CoreDataStoreReader().read(storeAt: try Fixtures.copyOfAppleStore(in: directory))
        let container = try ObjectContainer.inMemoryRecipes()
        let importer = SampleImporter(context: container.newContext(name: "import"))

        let dryRun = try importer.plan([set])
        #expect(dryRun.created == 50 && dryRun.updated == 0)
        #expect(try container.newBook().counts()["Recipe"] == 0)

        let first = try importer.importSets([set])
        #expect(first == dryRun)
        #expect(try Self.storedIDs(container) == Set(SampleObjects(set).documentIDs))
        #expect(try container.newBook().counts() == ["Recipe": 7, "Ingredient": 31, "RecipeType": 5, "Image": 7])

        let cake = try container.newBook().details(named: "Chocolate Cake")
        #expect(cake.id == SampleIdentity.recipeID(set: set.name, recipe: "Chocolate Cake"))
        #expect(cake.ingredients.map(\.displayOrder) == Array(0..<cake.ingredients.count))
        #expect(cake.ingredients[7].name == "Eggs")

        let second = try importer.importSets([set])
        #expect(second.changes.isEmpty && second.unchanged == 50)
    }

    @Test("a changed sample is updated only where it differs")
    func update() throws {
        let set = try #require(try BundledSampleSets.load(named: "classics"))
        let container = try ObjectContainer.inMemoryRecipes()
        try SampleImporter(context: container.newContext()).importSets([set])
        let book = container.newBook()
        let recipe = try book.recipe(named: set.recipes[0].name)
        try book.edit(recipe, RecipeEdit(overview: "changed by hand"))
        let plan = try SampleImporter(context: container.newContext()).importSets([set])
        #expect(plan.changes == [ImportChange(action: .update, entity: "Recipe", id: recipe.documentID, name: set.recipes[0].name, keys: ["overview"])])
        #expect(try container.newBook().details(named: set.recipes[0].name).overview == set.recipes[0].overview)
    }

    @Test("re-importing a deleted sample brings it back and reports its type, changed through the inverse, as updated")
    func reimportDeleted() throws {
        let set = try #require(try BundledSampleSets.load(named: "weeknight"))
        let container = try ObjectContainer.inMemoryRecipes()
        try SampleImporter(context: container.newContext()).importSets([set])
        let book = container.newBook()
        let recipe = try book.recipe(named: "Banana Bread")
        let typeName = try #require(try recipe.type?.name)
        try book.delete(recipe)
        let plan = try SampleImporter(context: container.newContext()).importSets([set])
        #expect(plan.counts(of: .create).map(\.entity).contains("Recipe"))
        #expect(plan.changes.contains { $0.action == .update && $0.entity == "RecipeType" && $0.name == typeName && $0.keys == ["recipes"] })
        #expect(try container.newBook().list().count == set.recipes.count)
    }

    @Test("excluded recipes are left out with their ingredients and picture")
    func excluding() throws {
        let set = try #require(try BundledSampleSets.load(named: "weeknight"))
        let container = try ObjectContainer.inMemoryRecipes()
        let objects = SampleObjects(set)
        let skipped = objects.recipes[0]
        let plan = try SampleImporter(context: container.newContext()).importSets([set], excluding: [skipped.id])
        #expect(plan.skipped == 1 + skipped.ingredientIDs.count + (skipped.imageID == nil ? 0 : 1))
        #expect(throws: RecipesError.recipeNotFound(skipped.name)) { try container.newBook().recipe(named: skipped.name) }
        #expect(try container.newBook().counts()["Recipe"] == set.recipes.count - 1)
    }

    @Test("an import that fails validation writes nothing")
    func allOrNothing() throws {
        var set = try #require(try BundledSampleSets.load(named: "classics"))
        set.recipes[3].ingredients = Array(repeating: SampleIngredient(amount: nil, name: "x"), count: 1)
        // A display order outside the model's 0… range cannot be written: make one by hand.
        let container = try ObjectContainer.inMemoryRecipes()
        let context = container.newContext()
        let bad = try Ingredient.insert(into: context)
        bad.displayOrder = -1
        #expect(throws: RecipesError.self) { try SampleImporter(context: context).importSets([set]) }
        #expect(try container.newBook().counts() == ["Recipe": 0, "Ingredient": 0, "RecipeType": 0, "Image": 0])
    }
}
