import Foundation
import DocumentIncrementalStore
import RecipesKit
import RecipesSyncKit
import Testing

/// Runs the steps of the RecipesKit catalog's article "Working with the Recipe Book"
/// (`Sources/RecipesKit/Documentation.docc/WorkingWithTheRecipeBook.md`), so its code keeps
/// compiling and doing what the article says. Change both together.
@Suite("Documentation: working with the recipe book")
struct GettingStartedArticleTests {
    @Test func addListEditSyncDelete() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("recipeskit-article-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }

        // Step 1: open a store and a book.
        let store = try RecipesStore(url: folder.appendingPathComponent("recipes.sqlite"))
        let book = store.container.newBook()

        // Step 2: add recipes.
        let dal = try book.add(RecipeDraft(
            name: "Weeknight Dal", type: "Entrée", prepTime: "30 minutes",
            ingredients: [IngredientInput(amount: "200 g", name: "red lentils"),
                          try IngredientInput(parsing: "1 tsp|turmeric")]))
        #expect(dal.ingredients.map(\.name) == ["red lentils", "turmeric"])
        _ = try book.add(RecipeDraft(name: "Lentil Soup", type: "Soup", prepTime: "45 minutes"))

        // Step 3: browse.
        let lentils = try book.list(RecipeQuery(search: "lentil"))
        #expect(Set(lentils.map(\.name)) == ["Weeknight Dal", "Lentil Soup"])
        let soups = try book.list(RecipeQuery(type: "soup", sort: .name))
        #expect(soups.map(\.name) == ["Lentil Soup"])
        let types = try book.types()
        #expect(types.map(\.name).sorted() == ["Entrée", "Soup"])
        #expect(types.allSatisfy { $0.recipeCount == 1 })

        // Step 4: show and edit.
        let found = try book.recipe(named: "weeknight dal")
        let edited = try book.edit(found, RecipeEdit(overview: "Quick and warming", removeIngredients: ["turmeric"]))
        #expect(edited.overview == "Quick and warming")
        #expect(edited.ingredients.map(\.name) == ["red lentils"])
        #expect(try book.details(of: found).overview == "Quick and warming")

        // Step 5: sync with another store file.
        let backup = folder.appendingPathComponent("backup.sqlite")
        let report = try await store.sync(with: backup).run()
        #expect(report.succeeded)
        #expect(report.pushed >= 2)
        let copy = try RecipesStore(url: backup)
        #expect(try copy.container.newBook().list().count == 2)

        // Step 6: delete.
        try book.delete(found)
        #expect(try book.list().map(\.name) == ["Lentil Soup"])
    }
}
