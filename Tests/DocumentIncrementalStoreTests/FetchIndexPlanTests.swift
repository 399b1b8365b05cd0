import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore
import DocumentFormat

/// Fetches through relationships keep their indexes: the query plans SQLite gives for them
/// name the index and never scan, whether or not the model declares a fetch index. These
/// check plans, not the clock, so they fail as soon as a pushed-down fetch falls back to
/// reading every document of an entity.
@Suite("Fetches through relationships are read from indexes")
struct FetchIndexPlanTests {
    /// Categories, dishes and their parts, without a single fetch index: only plain value
    /// indexes on the names and a text index on part labels.
    static let kitchenModel = TestSupport.model("""
        <entity name="Category">
            <attribute name="name" optional="YES" attributeType="String" indexed="YES"/>
            <relationship name="dishes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Dish" inverseName="category" inverseEntity="Dish"/>
        </entity>
        <entity name="Dish">
            <attribute name="title" optional="YES" attributeType="String" indexed="YES"/>
            <relationship name="category" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Category" inverseName="dishes" inverseEntity="Category"/>
            <relationship name="parts" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Part" inverseName="dish" inverseEntity="Part"/>
        </entity>
        <entity name="Part">
            <attribute name="label" optional="YES" attributeType="String">
                <userInfo>
                    <entry key="textIndexed" value="YES"/>
                </userInfo>
            </attribute>
            <attribute name="position" optional="YES" attributeType="Integer 16" defaultValueString="0"/>
            <relationship name="dish" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Dish" inverseName="parts" inverseEntity="Dish"/>
        </entity>
        """, name: "Kitchen")

    /// Three categories of four dishes, each with three parts saved out of position order.
    static func kitchen() throws -> (DocumentStack, dishes: [ObjectID]) {
        let stack = try DocumentStack(model: kitchenModel)
        let context = stack.context("writer")
        var dishes: [ManagedObject] = []
        for c in 0..<3 {
            let category = try context.insert("Category")
            try category.setValue(.string("Category \(c)"), forKey: "name")
            for d in 0..<4 {
                let dish = try context.insert("Dish")
                try dish.setValue(.string("Dish \(3 - d) of \(c)"), forKey: "title")
                try dish.setObject(category, forKey: "category")
                for p in [2, 0, 1] {
                    let part = try context.insert("Part")
                    try part.setValue(.string("part \(p) of dish \(d) of \(c)"), forKey: "label")
                    try part.setValue(.int(Int64(p)), forKey: "position")
                    try part.setObject(dish, forKey: "dish")
                }
                dishes.append(dish)
            }
        }
        try context.save()
        return (stack, dishes.map(\.objectID))
    }

    /// Fails for any query that reads every document (`SCAN` of the documents or of an index
    /// table), or every document of an entity (the entity index alone). Reading the sorted
    /// document numbers of a sorted plan (`SCAN ordered`), a candidate list (`json_each`) or
    /// walking a sort index in order until the page is full (`SCAN walk_by_…`, chosen only
    /// when the counters say it reads fewer rows than sorting) is no scan.
    static func expectIndexed(_ plans: [(selector: JSONValue, reading: String, steps: [String])],
                              sourceLocation: SourceLocation = #_sourceLocation) {
        for plan in plans {
            #expect(plan.reading != "scan", "\(plan.selector) is read by a scan", sourceLocation: sourceLocation)
            let scans = plan.steps.filter { $0.hasPrefix("SCAN") && !$0.contains("json_each") && $0 != "SCAN ordered" && !$0.hasPrefix("SCAN walk_by_") }
            #expect(scans.isEmpty, "\(plan.selector) scans: \(plan.steps)", sourceLocation: sourceLocation)
            #expect(!plan.steps.contains { $0.contains("cdtis_CDTISEntityName") },
                    "\(plan.selector) reads every document of its entity: \(plan.steps)", sourceLocation: sourceLocation)
        }
    }

    @Test("every to-one relationship's key is indexed, and no second index beside a fetch index led by it")
    func toOneRelationshipsAreIndexed() throws {
        let (stack, _) = try Self.kitchen()
        let names = try stack.store.documentStore.indexNames().query
        #expect(names.contains("cdtis_Part.dish"))
        #expect(names.contains("cdtis_Dish.category"))
        let recipes = try DocumentStack()
        let recipeNames = try recipes.store.documentStore.indexNames().query
        #expect(recipeNames.contains("cdtis_Ingredient.recipe"))
        #expect(recipeNames.contains("cdtis_Image.recipe"))
        #expect(recipeNames.contains("cdtis_Recipe.image"))
        #expect(recipeNames.contains("cdtis_Recipe#byTypeAndNameIndex"))
        #expect(!recipeNames.contains("cdtis_Recipe.type"), "byTypeAndNameIndex already leads with the type")
    }

    @Test("recipe == %@ and recipe IN %@ are look-ups in the foreign key's index")
    func toOneEqualityAndMembership() throws {
        let (stack, dishes) = try Self.kitchen()
        let byPosition = [FetchSortDescriptor("position")]
        let one = StoreFetchRequest(entityNames: ["Part"], predicate: try ObjectPredicate(format: "dish == %@", dishes[5]),
                                    sortDescriptors: byPosition)
        let plans = try stack.store.explainQueryPlans(one)
        #expect(plans.count == 1)
        #expect(plans.last?.reading == "index cdtis_Part.dish")
        #expect(plans.last?.steps.contains { $0.contains("INDEX cdtis_Part.dish (k0=?)") } == true, "\(plans)")
        Self.expectIndexed(plans)
        let context = stack.context("reader")
        let parts = try context.fetch(FetchRequest(entityName: "Part", predicate: one.predicate, sortDescriptors: byPosition))
        #expect(try parts.map { try $0.int("position") ?? -1 } == [0, 1, 2])
        #expect(try parts.allSatisfy { try $0.string("label")?.hasSuffix("of dish 1 of 1") == true })

        let two = StoreFetchRequest(entityNames: ["Part"], predicate: try ObjectPredicate(format: "dish IN %@", [dishes[0], dishes[11]]))
        let inPlans = try stack.store.explainQueryPlans(two)
        #expect(inPlans.last?.reading == "index cdtis_Part.dish")
        #expect(inPlans.last?.steps.contains { $0.contains("INDEX cdtis_Part.dish (k0=?)") } == true, "\(inPlans)")
        Self.expectIndexed(inPlans)
        #expect(try context.fetch(FetchRequest(entityName: "Part", predicate: two.predicate)).count == 6)
    }

    @Test("category.name == %@ looks up the categories, then the dishes by the foreign key, sorted by the title's index")
    func keyPathThroughAToOne() throws {
        let (stack, _) = try Self.kitchen()
        let request = StoreFetchRequest(entityNames: ["Dish"], predicate: try ObjectPredicate(format: "category.name == %@", "Category 2"),
                                        sortDescriptors: [FetchSortDescriptor("title")], fetchLimit: 3)
        let plans = try stack.store.explainQueryPlans(request)
        #expect(plans.count == 2, "one sub-query, then the fetch")
        #expect(plans.first?.reading == "index cdtis_Category.name")
        #expect(plans.last?.reading == "index cdtis_Dish.category")
        // The title comes from its own index, so SQLite sorts the category's dishes and only
        // the page is read.
        #expect(plans.last?.steps.contains { $0.contains("sort_by_cdtis_Dish.title") } == true, "\(plans)")
        Self.expectIndexed(plans)
        let context = stack.context("reader")
        let dishes = try context.fetch(FetchRequest(entityName: "Dish", predicate: request.predicate,
                                                    sortDescriptors: request.sortDescriptors, fetchLimit: 3))
        #expect(try dishes.map { try $0.string("title") ?? "" } == ["Dish 0 of 2", "Dish 1 of 2", "Dish 2 of 2"])
    }

    @Test("ANY parts.label == %@ reads the matching parts from an index, then their dishes by ID")
    func anyThroughAToMany() throws {
        let (stack, _) = try Self.kitchen()
        for format in ["ANY parts.label == %@", "ANY parts.label ==[cd] %@", "ANY parts.label CONTAINS[cd] %@"] {
            let request = StoreFetchRequest(entityNames: ["Dish"], predicate: try ObjectPredicate(format: format, "part 1 of dish 2 of 0"))
            let plans = try stack.store.explainQueryPlans(request)
            #expect(plans.count == 2, "\(format): one sub-query, then the fetch")
            #expect(plans.first?.reading == "candidates", "\(format): the parts come from the label's text index")
            #expect(plans.last?.reading == "candidates", "\(format): the dishes come by their IDs")
            Self.expectIndexed(plans)
            let reader = stack.context("reader")
            let dishes = try reader.fetch(FetchRequest(entityName: "Dish", predicate: request.predicate))
            #expect(try dishes.map { try $0.string("title") ?? "" } == ["Dish 1 of 0"], "\(format)")
        }
    }

    @Test("the recipes model's typical fetches stay on their indexes")
    func recipesModelFetches() throws {
        let stack = try DocumentStack()
        let context = stack.context("writer")
        var types: [ManagedObject] = []
        for name in ["Dessert", "Soup"] {
            let type = try context.insert("RecipeType")
            try type.setValue(.string(name), forKey: "name")
            types.append(type)
        }
        var recipes: [ManagedObject] = []
        for n in 0..<6 {
            let recipe = try context.insert("Recipe")
            try recipe.setValue(.string("Recipe \(5 - n)"), forKey: "name")
            try recipe.setObject(types[n % 2], forKey: "type")
            for order in [1, 0] {
                let ingredient = try context.insert("Ingredient")
                try ingredient.setValue(.string("Ingredient \(order) of \(n)"), forKey: "name")
                try ingredient.setValue(.int(Int64(order)), forKey: "displayOrder")
                try ingredient.setObject(recipe, forKey: "recipe")
            }
            recipes.append(recipe)
        }
        // A type whose name folds to "dessert" but is not "Dessert": the folded index narrows
        // `type.name == "Dessert"` to both types, and the exact comparison keeps only one.
        let lookalike = try context.insert("RecipeType")
        try lookalike.setValue(.string("DESSÉRT"), forKey: "name")
        let imposter = try context.insert("Recipe")
        try imposter.setValue(.string("Recipe 0"), forKey: "name")
        try imposter.setObject(lookalike, forKey: "type")
        try context.save()
        let store = stack.store

        // One recipe's ingredients in display order.
        let ingredients = try store.explainQueryPlans(StoreFetchRequest(
            entityNames: ["Ingredient"], predicate: try ObjectPredicate(format: "recipe == %@", recipes[3]),
            sortDescriptors: [FetchSortDescriptor("displayOrder")]))
        #expect(ingredients.last?.reading == "index cdtis_Ingredient.recipe")
        Self.expectIndexed(ingredients)

        // A type's recipes by name, the first 50: the type by its name's folded index, then its
        // recipes from the index led by the type, sorted by the name's index.
        let byTypeName = try store.explainQueryPlans(StoreFetchRequest(
            entityNames: ["Recipe"], predicate: try ObjectPredicate(format: "type.name == %@", "Dessert"),
            sortDescriptors: [FetchSortDescriptor("name")], fetchLimit: 50))
        #expect(byTypeName.count == 2)
        #expect(byTypeName.first?.reading == "index cdtis_RecipeType.name.folded", "\(byTypeName)")
        #expect(byTypeName.last?.reading == "index cdtis_Recipe#byTypeAndNameIndex")
        #expect(byTypeName.last?.steps.contains { $0.contains("sort_by_cdtis_Recipe.name ") } == true, "\(byTypeName)")
        Self.expectIndexed(byTypeName)

        // Recipes of a type, and of several.
        for predicate in [try ObjectPredicate(format: "type == %@", types[0]), try ObjectPredicate(format: "type IN %@", types.map(\.objectID))] {
            let plans = try store.explainQueryPlans(StoreFetchRequest(entityNames: ["Recipe"], predicate: predicate))
            #expect(plans.last?.reading == "index cdtis_Recipe#byTypeAndNameIndex")
            Self.expectIndexed(plans)
        }

        // Recipes by an ingredient's name.
        for format in ["ANY ingredients.name == %@", "ANY ingredients.name CONTAINS[cd] %@"] {
            let plans = try store.explainQueryPlans(StoreFetchRequest(entityNames: ["Recipe"],
                                                                      predicate: try ObjectPredicate(format: format, "Ingredient 1 of 4")))
            #expect(plans.count == 2)
            Self.expectIndexed(plans)
        }

        // The same fetches through a context give the right objects.
        let reader = stack.context("reader")
        let recipe = try reader.object(with: recipes[3].objectID)
        let orders = try reader.fetch(FetchRequest(entityName: "Ingredient", predicate: try ObjectPredicate(format: "recipe == %@", recipe),
                                                   sortDescriptors: [FetchSortDescriptor("displayOrder")]))
        #expect(try orders.map { try $0.int("displayOrder") ?? -1 } == [0, 1])
        let desserts = try reader.fetch(FetchRequest(entityName: "Recipe", predicate: try ObjectPredicate(format: "type.name == %@", "Dessert"),
                                                     sortDescriptors: [FetchSortDescriptor("name")], fetchLimit: 2))
        #expect(try desserts.map { try $0.string("name") ?? "" } == ["Recipe 1", "Recipe 3"])
        let withIngredient = try reader.fetch(FetchRequest(entityName: "Recipe",
                                                           predicate: try ObjectPredicate(format: "ANY ingredients.name == %@", "Ingredient 1 of 4")))
        #expect(try withIngredient.map { try $0.string("name") ?? "" } == ["Recipe 1"])
    }
}
