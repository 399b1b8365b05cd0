import DocumentIncrementalStore
import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import RecipesKit
import RecipesSyncKit
import TestSupport
import DocumentFormat

/// The recipe book on a real store file: every browse is a fetch the store answers from an
/// index, search uses the text indexes and stays in step with every write, paging is stable.
@Suite("Recipe book on a store file: indexes, search, paging")
struct BrowseAtScaleTests {
    /// A store file with a few recipes whose words differ in case and accents.
    private static func store(_ directory: TemporaryDirectory) throws -> RecipesStore {
        let store = try RecipesStore(url: directory.file("book.sqlite"))
        let book = store.container.newBook()
        try book.add(RecipeDraft(name: "Crème Brûlée", type: "Dessert", overview: "Custard under burnt sugar",
                                 ingredients: [IngredientInput(amount: "500 ml", name: "Crème fraîche"),
                                               IngredientInput(amount: "6", name: "egg yolks")]))
        try book.add(RecipeDraft(name: "Zanzibar Pilau", type: "Entrée", overview: "Spiced rice",
                                 ingredients: [IngredientInput(amount: "1 tsp", name: "Cardamom pods")]))
        try book.add(RecipeDraft(name: "Lemon Tart", type: "dessert", overview: "Sharp and sweet, with a crème base",
                                 ingredients: [IngredientInput(amount: "3", name: "lemons")]))
        return store
    }

    private static func names(_ book: RecipeBook, _ query: RecipeQuery) throws -> [String] {
        try book.list(query).map(\.name)
    }

    @Test("search finds a recipe by an ingredient word, ignoring case and accents, best matches first")
    func searchByIngredient() throws {
        let directory = try TemporaryDirectory()
        let book = try Self.store(directory).container.newBook()
        #expect(try Self.names(book, RecipeQuery(search: "CARDAMOM")) == ["Zanzibar Pilau"])
        #expect(try Self.names(book, RecipeQuery(search: "fraiche")) == ["Crème Brûlée"])
        // A name match ranks before an overview match.
        #expect(try Self.names(book, RecipeQuery(search: "creme")) == ["Crème Brûlée", "Lemon Tart"])
        // A type name matches too.
        #expect(try Self.names(book, RecipeQuery(search: "entree")) == ["Zanzibar Pilau"])
        // Search text is literal: quotes, operators and stars are characters, not syntax.
        for text in ["\"", "*", "creme OR lemon", "NEAR(a b)", "'; --"] {
            #expect(try Self.names(book, RecipeQuery(search: text)).isEmpty, "\(text)")
        }
    }

    @Test("an ingredient match ranks before an overview match, with or without the word in the overview too")
    func ingredientMatchesRankBeforeOverviewMatches() throws {
        let directory = try TemporaryDirectory()
        let book = try Self.store(directory).container.newBook()
        try book.add(RecipeDraft(name: "A Pudding", overview: "Rice with cardamom",
                                 ingredients: [IngredientInput(amount: "1", name: "milk")]))
        try book.add(RecipeDraft(name: "B Bun", overview: "A bun with cardamom",
                                 ingredients: [IngredientInput(amount: "2 tsp", name: "ground cardamom")]))
        try book.add(RecipeDraft(name: "C Tea", overview: "Spiced tea",
                                 ingredients: [IngredientInput(amount: "3", name: "cardamom pods")]))
        // By ingredient (by name among equals), then by overview alone.
        #expect(try Self.names(book, RecipeQuery(search: "cardamom")) == ["B Bun", "C Tea", "Zanzibar Pilau", "A Pudding"])
        // Only by ingredient: no overview holds the word.
        #expect(try Self.names(book, RecipeQuery(search: "pods")) == ["C Tea", "Zanzibar Pilau"])
    }

    @Test("a search matches type names among the types' names, then the recipes of those types by their type index")
    func searchMatchesTypesByTheirNames() throws {
        let directory = try TemporaryDirectory()
        let book = try Self.store(directory).container.newBook()
        let dessert = try #require(try book.recipeType(named: "dessert"))
        let predicate = try #require(try RecipeBook.predicate(for: RecipeQuery(search: "SSER"),
                                                              typeNames: { [dessert.objectID: "Dessert", ObjectID(entityName: "RecipeType", referenceString: "t"): "Soup"] }))
        #expect(!predicate.description.contains("type.name"), "\(predicate)")
        #expect(predicate.description.contains("type IN"), "\(predicate)")
        // Without a match among the names, no type clause at all.
        let none = try #require(try RecipeBook.predicate(for: RecipeQuery(search: "zzz"), typeNames: { [dessert.objectID: "Dessert"] }))
        #expect(!none.description.contains("type"), "\(none)")
        #expect(try Self.names(book, RecipeQuery(search: "ssert")) == ["Crème Brûlée", "Lemon Tart"])
    }

    @Test("the text index follows an edit and a deletion in the same save")
    func searchFollowsWrites() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory)
        let book = store.container.newBook()
        let tart = try book.recipe(named: "lemon tart")
        try book.edit(tart, RecipeEdit(name: "Lime Tart", ingredients: [IngredientInput(amount: "4", name: "Key limes")]))
        #expect(try Self.names(book, RecipeQuery(search: "lemon tart")).isEmpty)
        #expect(try Self.names(book, RecipeQuery(search: "key lime")) == ["Lime Tart"])
        try book.delete(try book.recipe(named: "Zanzibar Pilau"))
        #expect(try Self.names(book, RecipeQuery(search: "cardamom")).isEmpty)
        #expect(try Self.names(book, RecipeQuery(search: "zanzibar")).isEmpty)
        // The deleted recipe and its ingredients left the text indexes, not only the results.
        let texts = try store.documentStore.find(Query(selector: ["CDTISEntityName": "Ingredient", "name": ["$text": "cardamom"]]))
        #expect(texts.isEmpty)
    }

    @Test("a recipe that arrives by a pull is found by search")
    func searchFindsPulledRecipes() async throws {
        let directory = try TemporaryDirectory()
        let source = try Self.store(directory)
        let target = try RecipesStore(url: directory.file("other.sqlite"))
        _ = try await source.sync(with: directory.file("remote.sqlite")).run()
        _ = try await target.sync(with: directory.file("remote.sqlite")).run(direction: .pullOnly)
        #expect(try Self.names(target.container.newBook(), RecipeQuery(search: "cardamom")) == ["Zanzibar Pilau"])
        #expect(try target.container.newBook().recipe(named: "CREME BRULEE").documentID
                == (try source.container.newBook().recipe(named: "Crème Brûlée").documentID))
    }

    @Test("pages are stable and complete in every order")
    func paging() throws {
        let directory = try TemporaryDirectory()
        let store = try RecipesStore(url: directory.file("book.sqlite"))
        let book = store.container.newBook()
        for index in 0..<23 {
            try book.add(RecipeDraft(name: "Recipe \(String(format: "%02d", 22 - index))", type: index % 3 == 0 ? nil : "Type \(index % 4)",
                                     prepTime: "\(index % 5 * 10) minutes",
                                     ingredients: [IngredientInput(amount: nil, name: index % 2 == 0 ? "salt" : "pepper")]))
        }
        for query in [RecipeQuery(), RecipeQuery(sort: .type), RecipeQuery(sort: .prepTime), RecipeQuery(search: "salt"),
                      RecipeQuery(type: "type 1"), RecipeQuery(search: "recipe", sort: .name)] {
            let whole = try book.list(query).map(\.id)
            var paged: [String] = []
            var page = query
            page.limit = 5
            while true {
                page.offset = paged.count
                let ids = try book.list(page).map(\.id)
                paged += ids
                if ids.count < 5 { break }
            }
            #expect(paged == whole, "\(query)")
            #expect(Set(paged).count == paged.count)
            #expect(try book.count(matching: query) == whole.count)
        }
        #expect(try book.list(RecipeQuery()).count == 23)
        // The streamed pages of a listing hold the same summaries, at most a page at a time.
        for query in [RecipeQuery(), RecipeQuery(type: "TYPE 2"), RecipeQuery(limit: 7, offset: 4), RecipeQuery(offset: 30),
                      RecipeQuery(sort: .type), RecipeQuery(search: "pepper"), RecipeQuery(limit: 0)] {
            var streamed: [RecipeSummary] = []
            var largest = 0
            try book.forEachSummaryPage(query, pageSize: 4) { page in
                streamed += page
                largest = max(largest, page.count)
            }
            #expect(streamed == (try book.list(query)), "\(query)")
            if query.sort == nil && query.search == nil { #expect(largest <= 4, "\(query)") }
        }
        book.context.reset()
        try book.forEachSummaryPage(RecipeQuery(), pageSize: 4) { _ in
            #expect(book.context.registeredObjectCount == 0, "a listing reads values, not objects")
        }
        #expect(book.context.registeredObjectCount == 0)
        #expect(try Self.names(book, RecipeQuery(limit: 2)) == ["Recipe 00", "Recipe 01"])
        #expect(try book.list(RecipeQuery(limit: 0)).isEmpty)
        #expect(throws: RecipesError.self) { try book.list(RecipeQuery(limit: -1)) }
        #expect(throws: RecipesError.self) { try book.list(RecipeQuery(offset: -3)) }
    }

    @Test("name look-ups ignoring case and accents, type filters and ingredient search are answered from indexes")
    func plansUseIndexes() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory)
        let adapter = store.incrementalStore
        func plan(_ format: String, _ argument: String, sort: [FetchSortDescriptor] = []) throws -> String {
            let explained = try adapter.explain(StoreFetchRequest(entityNames: ["Recipe"], predicate: try ObjectPredicate(format: format, argument),
                                                                  sortDescriptors: sort))
            #expect(explained.residual == nil, "\(format) leaves \(String(describing: explained.residual)) to memory")
            return explained.plan
        }
        #expect(try plan("name ==[cd] %@", "creme brulee") == "index cdtis_Recipe.name.folded")
        #expect(try plan("name == %@", "Lemon Tart") == "index cdtis_Recipe.name")
        #expect(try plan("type.name ==[cd] %@", "DESSERT", sort: [RecipeBook.byName]) == "index cdtis_Recipe#byTypeAndNameIndex")
        // Listing by name, whole or by type, reads the IDs from those indexes alone.
        for predicate in [nil, try ObjectPredicate(format: "type.name ==[cd] %@", "dessert")] {
            let ids = try adapter.fetchObjectIDs(StoreFetchRequest(entityNames: ["Recipe"], predicate: predicate,
                                                                   sortDescriptors: [RecipeBook.byName], fetchLimit: 5))
            #expect(ids?.count == (predicate == nil ? 3 : 2))
        }
        #expect(try plan("ANY ingredients.name CONTAINS[cd] %@", "fraiche") == "candidates")
        #expect(try plan("name CONTAINS[cd] %@", "brul") == "candidates")
        // The answers agree with the in-memory evaluation on the same data.
        let book = store.container.newBook()
        #expect(try book.recipe(named: "CRÈME BRULEE").documentID == (try book.recipe(named: "Crème Brûlée").documentID))
        #expect(try Self.names(book, RecipeQuery(type: "DESSERT")) == ["Crème Brûlée", "Lemon Tart"])
    }

    @Test("a failure in a later batch leaves nothing of the import in the store")
    func importIsAllOrNothingAcrossBatches() throws {
        let directory = try TemporaryDirectory()
        let store = try RecipesStore(url: directory.file("book.sqlite"))
        let recipes = (0..<6).map { SampleRecipe(name: "Batch Recipe \($0)", ingredients: [SampleIngredient(amount: nil, name: "water")]) }
        let set = SampleSet(name: "batches", recipes: recipes)
        // A document of another kind already holds the ID the last recipe's ingredient gets,
        // so the fourth batch's save fails.
        let ingredientID = SampleIdentity.ingredientID(set: "batches", recipe: "Batch Recipe 5", displayOrder: 0, name: "water")
        try store.documentStore.create(id: ingredientID, body: ["CDTISEntityName": "Image"])
        var importer = SampleImporter(context: store.container.newContext(name: "import"), batchSize: 2)
        let progress = ProgressLog()
        importer.progress = { done, total in progress.append(done, total) }
        #expect(throws: RecipesError.self) { try importer.importSets([set]) }
        #expect(progress.entries.count == 2)
        #expect(try store.documentStore.get(id: SampleIdentity.recipeID(set: "batches", recipe: "Batch Recipe 0")) == nil)
        #expect(try store.container.newBook().list().isEmpty)
        // Without the obstacle the same import goes through, and again changes nothing.
        try store.documentStore.delete(id: ingredientID, parent: try #require(try store.documentStore.get(id: ingredientID)).rev)
        let plan = try SampleImporter(context: store.container.newContext(name: "import"), batchSize: 2).importSets([set])
        #expect(plan.created == 12 && plan.updated == 0)
        let again = try SampleImporter(context: store.container.newContext(name: "import"), batchSize: 2).importSets([set])
        #expect(again.created == 0 && again.updated == 0 && again.unchanged == 12)
        #expect(try store.container.newBook().list().count == 6)
    }
}

extension BrowseAtScaleTests {
    @Test("an importer that only counts its changes reports the same totals without a line per object")
    func countedChanges() throws {
        let directory = try TemporaryDirectory()
        let store = try RecipesStore(url: directory.file("book.sqlite"))
        let set = SampleSet(name: "counted", recipes: (0..<5).map {
            SampleRecipe(name: "Counted \($0)", type: "Soup", ingredients: [SampleIngredient(amount: "1", name: "salt")])
        })
        var importer = SampleImporter(context: store.container.newContext(name: "import"), batchSize: 2)
        importer.listsChanges = false
        let plan = try importer.importSets([set])
        #expect(plan.changes.isEmpty)
        #expect(plan.created == 11 && plan.updated == 0 && !plan.isEmpty)
        #expect(plan.counts(of: .create).map { "\($0.count) \($0.entity)" } == ["1 RecipeType", "5 Recipe", "5 Ingredient"])
        let listed = try SampleImporter(context: store.container.newContext(name: "again")).importSets([set])
        #expect(listed.created == 0 && listed.unchanged == 11 && listed.isEmpty)
    }
}

/// Progress reports collected from an importer.
private final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [(Int, Int)] = []
    func append(_ done: Int, _ total: Int) { lock.withLock { stored.append((done, total)) } }
    var entries: [(Int, Int)] { lock.withLock { stored } }
}

extension BrowseAtScaleTests {
    @Test("a batched import writes each type's list of recipes once, in the set's order; moving a recipe to another type updates both lists")
    func typeListsAreWrittenOnce() throws {
        let directory = try TemporaryDirectory()
        let store = try RecipesStore(url: directory.file("book.sqlite"))
        func set(firstType: String) -> SampleSet {
            SampleSet(name: "lists", types: ["Soup", "Dessert"], recipes: (0..<7).map { index in
                SampleRecipe(name: "Listed \(index)", type: index == 0 ? firstType : (index.isMultiple(of: 2) ? "Soup" : "Dessert"),
                             ingredients: [SampleIngredient(amount: nil, name: "water")])
            })
        }
        let objects = SampleObjects(set(firstType: "Soup"))
        let recipeIDs = objects.recipes.map(\.id)
        func typeID(_ name: String) throws -> String { try #require(objects.types.first { $0.name == name }).id }
        // A type's list as the object graph reads it, and how many times its document was written.
        func list(_ name: String) throws -> (recipes: [String], generation: Int) {
            let id = try typeID(name)
            let context = store.container.newContext()
            let type = try context.existingObject(with: ObjectID(entityName: "RecipeType", referenceString: id))
            let revision = try #require(try store.documentStore.get(id: id))
            return (try type.objectIDs(forKey: "recipes").map(\.referenceString), revision.rev.generation)
        }

        // Four batches of two recipes: each type is created, then its list written once.
        let created = try SampleImporter(context: store.container.newContext(name: "import"), batchSize: 2).importSets([set(firstType: "Soup")])
        #expect(created.created == 2 + 7 + 7 && created.updated == 0)
        #expect(try list("Soup") == ([0, 2, 4, 6].map { recipeIDs[$0] }, 2))
        #expect(try list("Dessert") == ([1, 3, 5].map { recipeIDs[$0] }, 2))

        // The first recipe moves from Soup to Dessert: a dry run and the import agree.
        let moved = set(firstType: "Dessert")
        let dryRun = try SampleImporter(context: store.container.newContext(name: "dry run")).plan([moved])
        let plan = try SampleImporter(context: store.container.newContext(name: "import"), batchSize: 2).importSets([moved])
        #expect(plan == dryRun)
        #expect(plan.changes == [
            ImportChange(action: .update, entity: "Recipe", id: recipeIDs[0], name: "Listed 0", keys: ["type"]),
            ImportChange(action: .update, entity: "RecipeType", id: try typeID("Dessert"), name: "Dessert", keys: ["recipes"]),
            ImportChange(action: .update, entity: "RecipeType", id: try typeID("Soup"), name: "Soup", keys: ["recipes"]),
        ].sorted { $0.entity == $1.entity ? $0.id < $1.id : $0.entity == "Recipe" })
        #expect(plan.unchanged == 16 - 3)
        #expect(try list("Soup") == ([2, 4, 6].map { recipeIDs[$0] }, 3))
        #expect(try list("Dessert") == ([1, 3, 5, 0].map { recipeIDs[$0] }, 3))
        #expect(try store.container.newBook().list(RecipeQuery(type: "Dessert")).map(\.name) == ["Listed 0", "Listed 1", "Listed 3", "Listed 5"])

        // Again: nothing to write.
        let again = try SampleImporter(context: store.container.newContext(name: "again"), batchSize: 2).importSets([moved])
        #expect(again.isEmpty && again.unchanged == 16)
        #expect(try list("Dessert").generation == 3)
    }
}
