import Foundation
import ObjectGraph
import Testing
@testable import RecipesKit

@Suite("Typed recipes layer")
struct TypedLayerTests {
    @Test("the bundled model loads from the module's resources with the four entities")
    func bundledModel() throws {
        let model = try RecipesModel.current()
        #expect(Set(model.entities.map(\.name)) == ["Recipe", "Ingredient", "RecipeType", "Image"])
        #expect(FileManager.default.fileExists(atPath: RecipesModel.modelURL.path))
        #expect(try RecipesModel.versions().versions.count >= 1)
    }

    @Test("the model compiled into the module is the bundled XML's current version: same definitions, same hashes")
    func compiledModelIsTheXMLCurrentVersion() throws {
        let versions = try RecipesModel.versions()
        let path = versions.current.sourcePath
        let parsed = try ModelDefinition(xml: try Data(contentsOf: URL(fileURLWithPath: path)), path: path)
        #expect(RecipesModelDefinition.definition == parsed)
        #expect(RecipesModelDefinition.versionName == versions.currentVersionName)
        let compiled = try RecipesModel.current()
        #expect(compiled.name == versions.current.name)
        #expect(compiled.versionHash == versions.current.versionHash)
        #expect(compiled.entityVersionHashes == versions.current.entityVersionHashes)
        #expect(compiled.entities.map(\.name) == versions.current.entities.map(\.name))
    }

    @Test("typed properties round-trip through a save and a fresh context")
    func roundTrip() throws {
        let container = try ObjectContainer.inMemoryRecipes()
        let context = container.newContext()
        let dessert = try RecipeType.insert(into: context)
        dessert.name = "Dessert"
        let recipe = try Recipe.insert(into: context)
        recipe.name = "Pancakes"
        recipe.overview = "Fluffy"
        recipe.prepTime = "20 minutes"
        recipe.instructions = "Mix.\nFry."
        recipe.thumbnailImage = Fixtures.pngBytes
        recipe.type = dessert
        let image = try Image.insert(into: context)
        image.data = Fixtures.jpegBytes
        recipe.image = image
        try recipe.addIngredient(name: "flour", amount: "200 g")
        try recipe.addIngredient(name: "milk", amount: "300 ml")
        try recipe.addIngredient(name: "egg", amount: nil)
        try context.save()

        let other = container.newContext()
        let again = try Recipe(try other.existingObject(with: recipe.objectID))
        #expect(try again.name == "Pancakes")
        #expect(try again.overview == "Fluffy")
        #expect(try again.prepTime == "20 minutes")
        #expect(try again.instructions == "Mix.\nFry.")
        #expect(try again.thumbnailImage == Fixtures.pngBytes)
        #expect(try again.type?.name == "Dessert")
        #expect(try again.image?.data == Fixtures.jpegBytes)
        #expect(try again.ingredients.map { try $0.name } == ["flour", "milk", "egg"])
        #expect(try again.ingredients.map { try $0.displayOrder } == [0, 1, 2])
        #expect(try again.ingredients.map { try $0.amount } == ["200 g", "300 ml", nil])
        #expect(try again.type?.recipes.map(\.objectID) == [recipe.objectID])
        #expect(try again.ingredients.first?.recipe?.objectID == recipe.objectID)
        #expect(try again.image?.recipe?.objectID == recipe.objectID)
    }

    @Test("ingredients come in displayOrder order, not insertion order; removal renumbers")
    func ingredientOrder() throws {
        let container = try ObjectContainer.inMemoryRecipes()
        let context = container.newContext()
        let recipe = try Recipe.insert(into: context)
        recipe.name = "Soup"
        for (order, name) in [(2, "salt"), (0, "water"), (1, "onion")] {
            let line = try Ingredient.insert(into: context)
            line.name = name
            line.displayOrder = Int16(order)
            try recipe.object.addObject(line.object, toKey: "ingredients")
        }
        try context.save()
        #expect(try recipe.ingredients.map { try $0.name } == ["water", "onion", "salt"])
        try recipe.removeIngredient(try #require(try recipe.ingredients.first))
        try context.save()
        let fresh = container.newContext()
        let reread = try Recipe(try fresh.existingObject(with: recipe.objectID))
        #expect(try reread.ingredients.map { try $0.name } == ["onion", "salt"])
        #expect(try reread.ingredients.map { try $0.displayOrder } == [0, 1])
    }

    @Test("a view refuses an object of another entity")
    func wrongEntity() throws {
        let container = try ObjectContainer.inMemoryRecipes()
        let context = container.newContext()
        let type = try context.insert("RecipeType")
        #expect(throws: RecipesError.wrongEntity(expected: "Recipe", got: "RecipeType")) { try Recipe(type) }
        #expect(throws: RecipesError.self) { try Ingredient(type) }
        #expect(throws: RecipesError.self) { try Image(type) }
        _ = try RecipeType(type)
    }

    @Test("deleting a recipe cascades to its ingredients and image but keeps its type")
    func deleteCascade() throws {
        let container = try ObjectContainer.inMemoryRecipes()
        let book = container.newBook()
        try book.add(RecipeDraft(name: "Toast", type: "Breakfast", ingredients: [IngredientInput(amount: "1", name: "bread")], image: Fixtures.pngBytes))
        try book.delete(try book.recipe(named: "Toast"))
        #expect(try book.counts() == ["Recipe": 0, "Ingredient": 0, "Image": 0, "RecipeType": 1])
    }

    @Test("an object inserted with a chosen ID keeps it; a second insert of that ID is refused")
    func chosenIDs() throws {
        let container = try ObjectContainer.inMemoryRecipes()
        let context = container.newContext()
        let recipe = try Recipe.insert(into: context, id: "CDTIS-Recipe-fixed")
        recipe.name = "Fixed"
        try context.save()
        #expect(recipe.documentID == "CDTIS-Recipe-fixed")
        #expect(throws: ObjectGraphError.self) { try Recipe.insert(into: container.newContext(), id: "CDTIS-Recipe-fixed") }
        #expect(throws: ObjectGraphError.self) { try Recipe.insert(into: context, id: "CDTIS-Recipe-fixed") }
    }

    @Test("prep times read as minutes")
    func prepTimes() {
        #expect(PrepTimeParser.minutes(in: "1 hour 30 minutes") == 90)
        #expect(PrepTimeParser.minutes(in: "45 min") == 45)
        #expect(PrepTimeParser.minutes(in: "1.5 h") == 90)
        #expect(PrepTimeParser.minutes(in: "overnight") == nil)
        #expect(PrepTimeParser.minutes(in: "2 hours") == 120)
    }
}
