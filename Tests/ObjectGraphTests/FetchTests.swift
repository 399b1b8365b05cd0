import Foundation
import Testing
@testable import ObjectGraph

@Suite("Fetch requests")
struct FetchTests {
    /// Saves a sample set and returns a fresh context over it.
    static func sample(_ support: InMemoryStore.PredicateSupport) throws -> (Stack, ObjectContext) {
        let stack = try Stack(predicateSupport: support)
        let ctx = stack.context("setup")
        let dessert = try ctx.recipeType("Dessert")
        let main = try ctx.recipeType("Main")
        try ctx.recipe("Chocolate Cake", type: dessert, ingredients: ["Flour", "Sugar", "Eggs", "Cocoa", "Butter", "Milk"], prepTime: "60")
        try ctx.recipe("apple pie", type: dessert, ingredients: ["Apples", "Flour", "Butter"], prepTime: "45")
        try ctx.recipe("Pasta", type: main, ingredients: ["Pasta", "Tomatoes"], prepTime: "20")
        try ctx.recipe("Bread", ingredients: ["Flour", "Water", "Yeast", "Salt"], prepTime: "240")
        try ctx.recipe("Salad", type: main, prepTime: "10")
        try ctx.save()
        return (stack, stack.context("reader"))
    }

    static let supports: [InMemoryStore.PredicateSupport] = [.all, .attributesOnly, .none]

    @Test(arguments: supports)
    func sortsLimitsAndOffsets(support: InMemoryStore.PredicateSupport) throws {
        let (_, ctx) = try Self.sample(support)
        let byName = FetchSortDescriptor("name")
        #expect(try ctx.names(FetchRequest(entityName: "Recipe", sortDescriptors: [byName])) == ["Bread", "Chocolate Cake", "Pasta", "Salad", "apple pie"])
        #expect(try ctx.names(FetchRequest(entityName: "Recipe", sortDescriptors: [FetchSortDescriptor("name", caseInsensitive: true)]))
                == ["apple pie", "Bread", "Chocolate Cake", "Pasta", "Salad"])
        #expect(try ctx.names(FetchRequest(entityName: "Recipe", sortDescriptors: [FetchSortDescriptor("name", ascending: false)])).first == "apple pie")
        // Sort through a to-one key path (nil first), then by name descending.
        #expect(try ctx.names(FetchRequest(entityName: "Recipe", sortDescriptors: [FetchSortDescriptor("type.name"), FetchSortDescriptor("name", ascending: false)]))
                == ["Bread", "apple pie", "Chocolate Cake", "Salad", "Pasta"])
        // Limit and offset.
        #expect(try ctx.names(FetchRequest(entityName: "Recipe", sortDescriptors: [byName], fetchLimit: 2, fetchOffset: 1)) == ["Chocolate Cake", "Pasta"])
        #expect(try ctx.names(FetchRequest(entityName: "Recipe", sortDescriptors: [byName], fetchOffset: 4)) == ["apple pie"])
        #expect(try ctx.names(FetchRequest(entityName: "Recipe", sortDescriptors: [byName], fetchOffset: 9)).isEmpty)
        // Predicates across relationships, evaluated by the store or by the coordinator.
        let flour = try ObjectPredicate(format: "ANY ingredients.name CONTAINS[c] %@", "flour")
        #expect(try ctx.names(FetchRequest(entityName: "Recipe", predicate: flour, sortDescriptors: [byName])) == ["Bread", "Chocolate Cake", "apple pie"])
        let mixed = try ObjectPredicate(format: "prepTime != '240' AND type.name == 'Dessert' AND ingredients.@count > 3")
        #expect(try ctx.names(FetchRequest(entityName: "Recipe", predicate: mixed)) == ["Chocolate Cake"])
        let limited = FetchRequest(entityName: "Recipe", predicate: flour, sortDescriptors: [FetchSortDescriptor("name", caseInsensitive: true)], fetchLimit: 1, fetchOffset: 1)
        #expect(try ctx.names(limited) == ["Bread"])
        // Result types.
        guard case .count(let n) = try ctx.execute(FetchRequest(entityName: "Recipe", predicate: flour, resultType: .count)) else { Issue.record("not a count"); return }
        #expect(n == 3)
        guard case .objectIDs(let ids) = try ctx.execute(FetchRequest(entityName: "RecipeType", sortDescriptors: [byName], resultType: .objectIDs)) else { Issue.record("not IDs"); return }
        #expect(ids.count == 2 && ids.allSatisfy { $0.entityName == "RecipeType" && !$0.isTemporary })
        #expect(try ctx.count(for: FetchRequest(entityName: "Ingredient", predicate: try ObjectPredicate(format: "recipe.type.name == 'Main'"))) == 2)
        let ordered = try ctx.fetch(FetchRequest(entityName: "Ingredient", predicate: try ObjectPredicate(format: "recipe.name == 'Chocolate Cake'"),
                                                 sortDescriptors: [FetchSortDescriptor("displayOrder", ascending: false)]))
        #expect(try ordered.map { try $0.int("displayOrder")! } == [5, 4, 3, 2, 1, 0])
    }

    @Test func batchSizeLeavesTheRestAsFaults() throws {
        let (stack, ctx) = try Self.sample(.all)
        let objects = try ctx.fetch(FetchRequest(entityName: "Recipe", sortDescriptors: [FetchSortDescriptor("name")], fetchBatchSize: 2))
        #expect(objects.count == 5)
        #expect(objects.map(\.isFault) == [false, false, true, true, true])
        let reads = stack.store.snapshotCount
        #expect(try objects[4].string("name") == "apple pie")   // fulfilled from the coordinator's row cache
        #expect(stack.store.snapshotCount == reads && !objects[4].isFault)
    }

    @Test func subentities() throws {
        let stack = try Stack(model: TestModels.rules)
        let ctx = stack.context()
        for (e, t) in [("Book", "Dune"), ("Film", "Alien"), ("Book", "Emma")] {
            let o = try ctx.insert(e)
            try o.setValue(.string(t), forKey: "title")
        }
        try ctx.save()
        let reader = stack.context()
        let titles = { (r: FetchRequest) in try reader.fetch(r).map { try $0.string("title")! } }
        #expect(try titles(FetchRequest(entityName: "Media", sortDescriptors: [FetchSortDescriptor("title")])) == ["Alien", "Dune", "Emma"])
        #expect(try titles(FetchRequest(entityName: "Book", sortDescriptors: [FetchSortDescriptor("title")])) == ["Dune", "Emma"])
        #expect(try titles(FetchRequest(entityName: "Media", includesSubentities: false)).isEmpty)
        // Pending inserts of a sub-entity show up in a fetch of the parent.
        let film = try reader.insert("Film")
        try film.setValue(.string("Brazil"), forKey: "title")
        #expect(try titles(FetchRequest(entityName: "Media", sortDescriptors: [FetchSortDescriptor("title")])) == ["Alien", "Brazil", "Dune", "Emma"])
    }

    @Test(arguments: supports)
    func pendingChangesAreReflected(support: InMemoryStore.PredicateSupport) throws {
        let (_, ctx) = try Self.sample(support)
        let byName = [FetchSortDescriptor("name", caseInsensitive: true)]
        let desserts = try ObjectPredicate(format: "type.name == 'Dessert'")
        let pie = try ctx.fetch(FetchRequest(entityName: "Recipe", predicate: try ObjectPredicate(format: "name == 'apple pie'")))[0]
        let bread = try ctx.fetch(FetchRequest(entityName: "Recipe", predicate: try ObjectPredicate(format: "name == 'Bread'")))[0]
        let dessert = try #require(try pie.object(forKey: "type"))
        // An unsaved insert, a changed object that now matches, one that no longer matches.
        try ctx.recipe("Brownies", type: dessert)
        try bread.setObject(dessert, forKey: "type")
        try pie.setObject(nil, forKey: "type")
        #expect(try ctx.names(FetchRequest(entityName: "Recipe", predicate: desserts, sortDescriptors: byName)) == ["Bread", "Brownies", "Chocolate Cake"])
        #expect(try ctx.names(FetchRequest(entityName: "Recipe", predicate: desserts, sortDescriptors: byName, fetchLimit: 1, fetchOffset: 1)) == ["Brownies"])
        // The store still has the old state.
        #expect(try ctx.names(FetchRequest(entityName: "Recipe", predicate: desserts, sortDescriptors: byName, includesPendingChanges: false)) == ["apple pie", "Chocolate Cake"])
        // A pending deletion hides the object; a pending rename re-sorts it.
        let cake = try ctx.fetch(FetchRequest(entityName: "Recipe", predicate: try ObjectPredicate(format: "name BEGINSWITH 'Choc'")))[0]
        try ctx.delete(cake)
        try bread.setValue(.string("Zucchini Bread"), forKey: "name")
        #expect(try ctx.names(FetchRequest(entityName: "Recipe", predicate: desserts, sortDescriptors: byName)) == ["Brownies", "Zucchini Bread"])
        #expect(try ctx.count(for: FetchRequest(entityName: "Recipe")) == 5)
        #expect(try ctx.count(for: FetchRequest(entityName: "Ingredient", predicate: try ObjectPredicate(format: "recipe == nil"))) == 0)
        // In-memory evaluation sees pending to-many changes too.
        let flour = try ObjectPredicate(format: "ANY ingredients.name ==[c] 'flour'")
        #expect(try ctx.names(FetchRequest(entityName: "Recipe", predicate: flour, sortDescriptors: byName)) == ["apple pie", "Zucchini Bread"])
        try ctx.save()
        #expect(try stack(ctx).names(FetchRequest(entityName: "Recipe", predicate: desserts, sortDescriptors: byName)) == ["Brownies", "Zucchini Bread"])
    }

    private func stack(_ ctx: ObjectContext) -> ObjectContext { ObjectContext(coordinator: ctx.coordinator, name: "fresh") }
}

@Suite("Model version 2")
struct ModelVersion2Tests {
    @Test func newestFirstWithDatePredicates() throws {
        let set = try ModelVersionSet.load(contentsOf: TestSupport.recipesModeld)
        let v2 = try #require(set.versions["Recipes 2"])
        let stack = try Stack(model: v2)
        let ctx = stack.context()
        let base = Date(timeIntervalSinceReferenceDate: 700_000_000)
        for (i, name) in ["Old", "Middle", "New"].enumerated() {
            let r = try ctx.recipe(name)
            try r.setValue(base.addingTimeInterval(Double(i) * 86_400), forKey: "createdAt")
        }
        #expect(throws: ObjectGraphError.self) { try ctx.insert("Recipe").setValue(.string("yesterday"), forKey: "createdAt") }
        ctx.rollback()
        #expect(try ctx.count(for: FetchRequest(entityName: "Recipe")) == 0)
        for (i, name) in ["Old", "Middle", "New"].enumerated() {
            let r = try ctx.recipe(name)
            try r.setValue(base.addingTimeInterval(Double(i) * 86_400), forKey: "createdAt")
        }
        try ctx.save()
        let reader = stack.context()
        let newestFirst = [FetchSortDescriptor("createdAt", ascending: false)]
        #expect(try reader.names(FetchRequest(entityName: "Recipe", sortDescriptors: newestFirst)) == ["New", "Middle", "Old"])
        let recent = try ObjectPredicate(format: "createdAt > %@", base.addingTimeInterval(3600))
        #expect(try reader.names(FetchRequest(entityName: "Recipe", predicate: recent, sortDescriptors: newestFirst)) == ["New", "Middle"])
        let window = try ObjectPredicate(format: "createdAt BETWEEN %@", [base, base.addingTimeInterval(86_400)])
        #expect(try reader.names(FetchRequest(entityName: "Recipe", predicate: window, sortDescriptors: newestFirst)) == ["Middle", "Old"])
        // A store written with version 1 refuses version 2.
        let v1Store = InMemoryStore()
        _ = try PersistentStoreCoordinator(model: set.current, store: v1Store)
        #expect(throws: ObjectGraphError.self) { try PersistentStoreCoordinator(model: v2, store: v1Store) }
    }
}
