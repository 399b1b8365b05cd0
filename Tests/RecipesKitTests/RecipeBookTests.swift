import Foundation
import DocumentIncrementalStore
import TestSupport
import DocumentFormat
import DocumentStore
import ObjectGraph
import Testing
@testable import RecipesKit

@Suite("Recipe book")
struct RecipeBookTests {
    private func book() throws -> (ObjectContainer, RecipeBook) {
        let container = try ObjectContainer.inMemoryRecipes()
        let book = container.newBook()
        try book.add(RecipeDraft(name: "Pancakes", type: "Breakfast", overview: "Fluffy stack", prepTime: "20 minutes",
                                 ingredients: [IngredientInput(amount: "200 g", name: "flour"), IngredientInput(amount: nil, name: "salt")]))
        try book.add(RecipeDraft(name: "Crème Brûlée", type: "Dessert", prepTime: "1 hour"))
        try book.add(RecipeDraft(name: "Apple pie", type: "dessert", prepTime: "5 minutes", image: Fixtures.jpegBytes))
        try book.add(RecipeDraft(name: "Water"))
        return (container, book)
    }

    @Test("cards are the list's lines without overview and ingredients, for every query, in both stores")
    func cardsMatchTheList() throws {
        let folder = try TemporaryDirectory()
        let stored = try RecipesStore(url: folder.url.appendingPathComponent("book.sqlite")).container.newBook()
        try stored.add(RecipeDraft(name: "Pancakes", type: "Breakfast", prepTime: "20 minutes",
                                   ingredients: [IngredientInput(amount: "200 g", name: "flour")]))
        try stored.add(RecipeDraft(name: "Apple pie", type: "dessert", image: Fixtures.jpegBytes))
        try stored.add(RecipeDraft(name: "Water"))
        // The in-memory store builds values from rows; the document store reads them itself.
        for book in [try book().1, stored] {
            let queries = [RecipeQuery(), RecipeQuery(type: "dessert"), RecipeQuery(search: "flour"), RecipeQuery(sort: .prepTime),
                           RecipeQuery(limit: 2), RecipeQuery(limit: 1, offset: 1), RecipeQuery(limit: 0)]
            for query in queries {
                let cards = try book.cards(query)
                #expect(cards == (try book.list(query)).map(RecipeCard.init), "\(query)")
            }
            #expect(try book.cards().contains { $0.name == "Apple pie" && $0.hasImage && $0.type?.lowercased() == "dessert" })
        }
    }

    @Test("list filters by type and text and sorts by name, type and prep time")
    func listing() throws {
        let (_, book) = try book()
        #expect(try book.list().map(\.name) == ["Apple pie", "Crème Brûlée", "Pancakes", "Water"])
        #expect(try book.list(RecipeQuery(type: "DESSERT")).map(\.name) == ["Apple pie", "Crème Brûlée"])
        #expect(try book.list(RecipeQuery(search: "creme")).map(\.name) == ["Crème Brûlée"])
        #expect(try book.list(RecipeQuery(search: "FLOUR")).map(\.name) == ["Pancakes"])
        #expect(try book.list(RecipeQuery(sort: .prepTime)).map(\.name) == ["Apple pie", "Pancakes", "Crème Brûlée", "Water"])
        #expect(try book.list(RecipeQuery(sort: .type)).map(\.name) == ["Pancakes", "Apple pie", "Crème Brûlée", "Water"])
        let pancakes = try #require(try book.list().first { $0.name == "Pancakes" })
        #expect(pancakes.ingredientCount == 2 && pancakes.type == "Breakfast" && !pancakes.hasImage)
    }

    @Test("types are shared by name and counted")
    func types() throws {
        let (_, book) = try book()
        #expect(try book.types() == [RecipeTypeSummary(name: "Breakfast", recipeCount: 1), RecipeTypeSummary(name: "Dessert", recipeCount: 2)])
    }

    @Test("names resolve by ID, exact name, then case-insensitive name; unknown and ambiguous names fail")
    func resolving() throws {
        let (container, book) = try book()
        defer { withExtendedLifetime(container) {} }
        let pie = try book.recipe(named: "apple PIE")
        #expect(try pie.name == "Apple pie")
        #expect(try book.recipe(named: pie.documentID).objectID == pie.objectID)
        #expect(throws: RecipesError.recipeNotFound("Nope")) { try book.recipe(named: "Nope") }
        // Two recipes whose names differ only in case make the folded lookup ambiguous.
        let twin = try Recipe.insert(into: book.context)
        twin.name = "APPLE PIE"
        try book.context.save()
        #expect(try book.recipe(named: "APPLE PIE").objectID == twin.objectID)
        do {
            _ = try book.recipe(named: "apple pie")
            Issue.record("expected an ambiguity")
        } catch {
            guard case .ambiguousRecipe(_, let candidates) = error else { Issue.record("\(error)"); return }
            #expect(Set(candidates.map(\.name)) == ["Apple pie", "APPLE PIE"])
        }
    }

    @Test("show gives ingredients in order, type, times and image sizes")
    func details() throws {
        let (_, book) = try book()
        let pancakes = try book.details(of: try book.recipe(named: "Pancakes"))
        #expect(pancakes.ingredients.map(\.name) == ["flour", "salt"])
        #expect(pancakes.ingredients.map(\.amount) == ["200 g", nil])
        #expect(pancakes.type == "Breakfast" && pancakes.prepTime == "20 minutes" && pancakes.image == nil)
        let pie = try book.details(of: try book.recipe(named: "Apple pie"))
        #expect(pie.image == ImageInfo(data: Fixtures.jpegBytes))
        #expect(pie.image?.mimeType == "image/jpeg" && pie.image?.bytes == Fixtures.jpegBytes.count)
    }

    @Test("show reads the type's name without loading the type, whose document lists every recipe of the type")
    func detailsLeaveTheTypeUnread() throws {
        let folder = try TemporaryDirectory()
        let store = try RecipesStore(url: folder.url.appendingPathComponent("book.sqlite"))
        try store.container.newBook().add(RecipeDraft(name: "Pancakes", type: "Breakfast"))
        // A fresh context, as a new `recipes show` has: nothing loaded yet.
        let context = store.container.newContext(name: "show")
        let book = RecipeBook(context: context)
        let recipe = try book.recipe(named: "Pancakes")
        let typeID = try #require(try recipe.object.objectIDs(forKey: "type").first)
        #expect(try book.details(of: recipe).type == "Breakfast")
        #expect(context.registeredObject(for: typeID)?.isFault ?? true)
    }

    @Test("edit changes fields, ingredients and the picture in one save")
    func editing() throws {
        let (_, book) = try book()
        let recipe = try book.recipe(named: "Pancakes")
        let details = try book.edit(recipe, RecipeEdit(
            name: "Crêpes", type: "", overview: "", removeIngredients: ["SALT"],
            ingredients: [IngredientInput(amount: "250 g", name: "Flour"), IngredientInput(amount: "2", name: "eggs")],
            image: Fixtures.pngBytes))
        #expect(details.name == "Crêpes" && details.type == nil && details.overview == nil)
        #expect(details.ingredients.map(\.name) == ["flour", "eggs"])
        #expect(details.ingredients.map(\.amount) == ["250 g", "2"])
        #expect(details.ingredients.map(\.displayOrder) == [0, 1])
        #expect(details.image?.mimeType == "image/png")
        let cleared = try book.edit(recipe, RecipeEdit(clearImage: true))
        #expect(cleared.image == nil && cleared.thumbnail == nil)
        #expect(try book.counts()["Image"] == 1)
    }

    @Test("bad input changes nothing")
    func badInput() throws {
        let (container, book) = try book()
        defer { withExtendedLifetime(container) {} }
        let before = try book.list()
        #expect(throws: RecipesError.invalidValue(field: "name", reason: "a recipe needs a name that is not empty")) {
            try book.add(RecipeDraft(name: "  "))
        }
        #expect(throws: RecipesError.self) { try book.add(RecipeDraft(name: "Water")) }
        let pancakes = try book.recipe(named: "Pancakes")
        #expect(throws: RecipesError.ingredientNotFound(recipe: "Pancakes", ingredient: "butter")) {
            try book.edit(pancakes, RecipeEdit(name: "Renamed", removeIngredients: ["butter"]))
        }
        #expect(throws: RecipesError.self) { try book.edit(pancakes, RecipeEdit(name: "Water")) }
        #expect(try book.list() == before)
        #expect(!book.context.hasChanges)
    }

    @Test("ingredient lines parse as AMOUNT|NAME")
    func ingredientParsing() throws {
        #expect(try IngredientInput(parsing: " 2 cups | flour ") == IngredientInput(amount: "2 cups", name: "flour"))
        #expect(try IngredientInput(parsing: "|salt") == IngredientInput(amount: nil, name: "salt"))
        #expect(throws: RecipesError.self) { try IngredientInput(parsing: "flour") }
        #expect(throws: RecipesError.self) { try IngredientInput(parsing: "1|") }
        #expect(throws: RecipesError.self) { try IngredientInput(parsing: "1|a|b") }
    }
}

/// A replica can hold a recipe before the documents it refers to: the image or type saved
/// with it may arrive in a later batch of a sync.
@Suite("Recipe book: references not replicated yet")
struct UnreplicatedReferenceTests {
    @Test("a recipe whose image and type have not arrived shows and edits without them, and keeps the references")
    func editBeforeTheImageArrives() throws {
        let directory = try TemporaryDirectory()
        let store = try RecipesStore(url: directory.file("book.sqlite"))
        let book = store.container.newBook()
        let added = try book.add(RecipeDraft(name: "Apple pie", type: "Dessert", prepTime: "1 hour",
                                             ingredients: [IngredientInput(amount: "6", name: "apples"), IngredientInput(amount: nil, name: "pastry")],
                                             image: Fixtures.jpegBytes))
        let recipe = try book.recipe(named: "Apple pie")
        let imageID = try #require(try recipe.object.objectIDs(forKey: "image").first)
        let typeID = try #require(try recipe.object.objectIDs(forKey: "type").first)
        // As on a replica that has the recipe but not yet its image and type.
        let pastry = try #require(added.ingredients.last?.id)
        for id in [imageID, typeID, ObjectID(entityName: Ingredient.entityName, referenceString: pastry)] {
            let leaves = try store.documentStore.leafRevisions(id: id.referenceString)
            _ = try store.documentStore.purge([id.referenceString: leaves.map(\.rev)])
        }
        book.context.reset()
        book.context.coordinator.discardCachedRows()
        let again = try book.recipe(named: "Apple pie")
        let shown = try book.details(of: again)
        #expect(shown.name == "Apple pie" && shown.image == nil && shown.type == nil)
        #expect(shown.ingredients.map(\.name) == ["apples"])
        let edited = try book.edit(again, RecipeEdit(overview: "With cinnamon"))
        #expect(edited.overview == "With cinnamon")
        // The references stay, so the image and type show once they arrive.
        let saved = try #require(try store.documentStore.get(id: added.id))
        #expect(saved.body["image"]?.stringValue == imageID.referenceString)
        #expect(saved.body["type"]?.stringValue == typeID.referenceString)
        #expect(try book.list().map(\.name) == ["Apple pie"])
    }
}
