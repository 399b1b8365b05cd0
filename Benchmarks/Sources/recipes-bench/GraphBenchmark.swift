import ArgumentParser
import DocumentIncrementalStore
import DocumentStore
import Foundation
import ObjectGraph
import RecipesKit

/// `recipes-bench graph`: recipes inserted through object-graph contexts into the
/// document-backed store, against the same documents written straight to a `DocumentStore`
/// in the same run; then the app's typical fetches: one type's recipes by name, one recipe's
/// ingredients in display order, and the recipes that use an ingredient (`ANY` through the
/// to-many).
struct GraphBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Insert recipes (8 ingredients, one of 5 types) through contexts and straight into the datastore; time three fetches, string and typed queries and properties, and a typed observer of another process's saves.")

    @Option(name: .long, help: "Number of recipes.")
    var recipes = 10_000

    @Option(name: .long, help: "Recipes per context save.")
    var saveEvery = 500

    @Option(name: .long, help: "Times each fetch is run; the median is reported.")
    var repeats = 20

    @Option(name: .long, help: "Path of the .xcdatamodeld (default: the recipes model RecipesKit bundles).")
    var model: String?

    @Option(name: .long, help: "Recipes whose properties are read and written, typed and by key, per run.")
    var propertyObjects = 2_000

    @Option(name: .long, help: "Recipes added by a `recipes add` process while a typed observer follows the store (0: skip).")
    var observeRuns = 10

    @Option(name: .long, help: "Path of the `recipes` executable for the observation (default: next to this program, else the root package's build; the observation is skipped when none is found).")
    var recipesExecutable: String?

    @Flag(name: .long, help: "Also print one JSON object with the figures on the last line.")
    var json = false

    func validate() throws {
        guard recipes > 0, saveEvery > 0, repeats > 0, propertyObjects > 0 else {
            throw ValidationError("--recipes, --save-every, --repeats and --property-objects must be positive")
        }
        guard observeRuns >= 0 else { throw ValidationError("--observe-runs must be 0 or more") }
    }

    private static let typeNames = ["Dessert", "Main", "Soup", "Salad", "Breakfast"]

    /// The model the run builds: `--model`, else the recipes model RecipesKit bundles as a
    /// resource (found from any working directory, in a fresh clone as in an installed build).
    private func objectModel() throws -> ObjectModel {
        if let model { return try ModelVersionSet.load(contentsOf: URL(fileURLWithPath: model)).current }
        return try RecipesModel.versions().current
    }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    func run() throws {
        let objectModel = try objectModel()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-bench-graph-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let graphPath = directory.appendingPathComponent("graph.sqlite").path

        // 1. Through the object graph, and 2. the same documents straight into a DocumentStore
        // (same transaction sizes and indexes). The two are interleaved batch by batch so that
        // both see the same machine load.
        let store = try DocumentIncrementalStore(url: URL(fileURLWithPath: graphPath))
        let coordinator = try PersistentStoreCoordinator(model: objectModel, store: store)
        let rawStore = try DocumentStore(url: directory.appendingPathComponent("raw.sqlite"))
        try store.declareModelIndexes(in: rawStore)
        var graphSeconds = 0.0
        var saveSeconds = 0.0
        var storeSeconds = 0.0
        var copied = 0
        /// Writes the current revisions of `ids` to the raw store in one transaction (timed).
        func copyStraight(_ ids: [ObjectID]) throws {
            let operations = try ids.compactMap { id -> DocumentStore.WriteOperation? in
                guard let doc = try store.documentStore.get(id: id.referenceString) else { return nil }
                return .create(id: doc.id, body: doc.body, attachments: [])
            }
            storeSeconds += try Self.seconds { try rawStore.write(operations) }
            copied += operations.count
        }
        let setup = ObjectContext(coordinator: coordinator, name: "types")
        var typeObjects: [ManagedObject] = []
        graphSeconds += try Self.seconds {
            typeObjects = try Self.typeNames.map { name -> ManagedObject in
                let t = try setup.insert("RecipeType")
                try t.setValue(.string(name), forKey: "name")
                return t
            }
            try setup.save()
        }
        let typeIDs = typeObjects.map(\.objectID)
        try copyStraight(typeIDs)
        var start = 0
        while start < recipes {
            let context = ObjectContext(coordinator: coordinator, name: "batch")
            var inserted: [ManagedObject] = []
            graphSeconds += try Self.seconds {
                let types = try typeIDs.map { try context.object(with: $0) }
                for n in start..<min(recipes, start + saveEvery) {
                    let recipe = try context.insert("Recipe")
                    try recipe.setValue(.string(String(format: "Recipe %06d", (n &* 7919) % recipes)), forKey: "name")
                    try recipe.setValue(.string("A dish numbered \(n), with a short overview."), forKey: "overview")
                    try recipe.setValue(.string("Mix, then cook for \(10 + n % 50) minutes, then serve."), forKey: "instructions")
                    try recipe.setValue(.string("\(10 + n % 50) min"), forKey: "prepTime")
                    try recipe.setObject(types[n % types.count], forKey: "type")
                    inserted.append(recipe)
                    for j in 0..<8 {
                        let ingredient = try context.insert("Ingredient")
                        try ingredient.setValue(.string("Ingredient \(j) of \(n)"), forKey: "name")
                        try ingredient.setValue(.string("\(j + 1) cups"), forKey: "amount")
                        try ingredient.setValue(.int(Int64((j * 5) % 8)), forKey: "displayOrder")
                        try ingredient.setObject(recipe, forKey: "recipe")
                        inserted.append(ingredient)
                    }
                }
                saveSeconds += try Self.seconds { try context.save() }
            }
            // The types' documents changed too (their to-many "recipes"); the copy writes
            // only the new objects, which is the bulk of the work.
            try copyStraight(inserted.map(\.objectID))
            start += saveEvery
        }
        let objects = recipes * 9 + Self.typeNames.count

        // This machine's speed drifts by up to twofold within minutes: the fixed CPU task of
        // `recipes-bench cli`, timed just before the fetches, tells how fast it was.
        let machineSpeedMs = CLIBenchmark.calibration()

        // 3. Recipes of one type, by name, first 50 (a fresh coordinator: nothing cached).
        // Each run times the string request (format predicate, names read by key) and the
        // typed one (`FetchDescriptor` with `#Predicate`, names read through `Recipe.name`)
        // in fresh contexts, the order swapped run by run; run 0, the string one first,
        // is the cold fetch.
        let readCoordinator = try PersistentStoreCoordinator(model: objectModel, store: DocumentIncrementalStore(url: URL(fileURLWithPath: graphPath)))
        let byType = FetchRequest(entityName: "Recipe", predicate: try ObjectPredicate(format: "type.name == %@", "Dessert"),
                                  sortDescriptors: [FetchSortDescriptor("name")], fetchLimit: 50)
        let typedByType = FetchDescriptor<Recipe>(predicate: #Predicate { $0.type?.name == "Dessert" },
                                                  sortBy: [SortDescriptor(\.name)], fetchLimit: 50)
        let expectedByType = min(50, recipes / Self.typeNames.count)
        var firstRecipe: ObjectID?
        var byTypeFirstMs = 0.0
        var byTypeTimes: [Double] = []
        var typedByTypeTimes: [Double] = []
        for run in 0...repeats {
            var stringNames: [String] = []
            var typedNames: [String] = []
            let timeString = {
                let context = ObjectContext(coordinator: readCoordinator, name: "fetch")
                return try Self.seconds {
                    let found = try context.fetch(byType)
                    stringNames = try found.map { try $0.string("name") ?? "" }
                    firstRecipe = found.first?.objectID
                } * 1000
            }
            let timeTyped = {
                let context = ObjectContext(coordinator: readCoordinator, name: "typed-fetch")
                return try Self.seconds { typedNames = try context.fetch(typedByType).map(\.name) } * 1000
            }
            let ms: Double, typedMs: Double
            if run % 2 == 0 {
                ms = try timeString()
                typedMs = try timeTyped()
            } else {
                typedMs = try timeTyped()
                ms = try timeString()
            }
            guard stringNames.count == expectedByType, stringNames == stringNames.sorted() else {
                throw ValidationError("fetch by type returned \(stringNames.count) recipes, unsorted or wrong")
            }
            guard typedNames == stringNames else {
                throw ValidationError("the typed fetch by type returned \(typedNames.count) recipes, not the string fetch's \(stringNames.count)")
            }
            if run == 0 { byTypeFirstMs = ms } else { byTypeTimes.append(ms); typedByTypeTimes.append(typedMs) }
        }
        // The same query without the limit: the store counts the same recipes both ways.
        do {
            let context = ObjectContext(coordinator: readCoordinator, name: "count")
            var unlimited = byType
            unlimited.fetchLimit = nil
            var typedUnlimited = typedByType
            typedUnlimited.fetchLimit = nil
            let (stringCount, typedCount) = (try context.count(for: unlimited), try context.fetchCount(typedUnlimited))
            guard stringCount == typedCount, stringCount == (recipes + Self.typeNames.count - 1) / Self.typeNames.count else {
                throw ValidationError("fetch by type counts \(stringCount) recipes by string and \(typedCount) typed")
            }
        }

        // 4. One recipe's ingredients in display order, string and typed alternated as in 3.
        guard let recipeID = firstRecipe else { throw ValidationError("no recipe found") }
        let typedIngredients = FetchDescriptor<Ingredient>(predicate: #Predicate { $0.recipe?.objectID == recipeID },
                                                           sortBy: [SortDescriptor(\.displayOrder)])
        var ingredientTimes: [Double] = []
        var typedIngredientTimes: [Double] = []
        var ingredientsFirstMs = 0.0
        for run in 0...repeats {
            var orders: [Int64] = []
            var typedOrders: [Int64] = []
            let timeString = {
                let context = ObjectContext(coordinator: readCoordinator, name: "ingredients")
                return try Self.seconds {
                    let recipe = try context.object(with: recipeID)
                    let request = FetchRequest(entityName: "Ingredient", predicate: try ObjectPredicate(format: "recipe == %@", recipe),
                                               sortDescriptors: [FetchSortDescriptor("displayOrder")])
                    orders = try context.fetch(request).map { try $0.int("displayOrder") ?? -1 }
                } * 1000
            }
            let timeTyped = {
                let context = ObjectContext(coordinator: readCoordinator, name: "typed-ingredients")
                return try Self.seconds {
                    typedOrders = try context.fetch(typedIngredients).map { Int64($0.displayOrder ?? -1) }
                } * 1000
            }
            let ms: Double, typedMs: Double
            if run % 2 == 0 {
                ms = try timeString()
                typedMs = try timeTyped()
            } else {
                typedMs = try timeTyped()
                ms = try timeString()
            }
            guard orders == Array(0..<8) else { throw ValidationError("ingredients came back as \(orders)") }
            guard typedOrders == orders else { throw ValidationError("the typed ingredients fetch came back as \(typedOrders)") }
            if run == 0 { ingredientsFirstMs = ms } else { ingredientTimes.append(ms); typedIngredientTimes.append(typedMs) }
        }

        // 5. The recipes using an ingredient, by the ingredient's name (one recipe here).
        var anyTimes: [Double] = []
        var anyFirstMs = 0.0
        for run in 0...repeats {
            let context = ObjectContext(coordinator: readCoordinator, name: "any")
            let n = (run * 7919) % recipes
            var names: [String] = []
            let ms = try Self.seconds {
                let request = FetchRequest(entityName: "Recipe",
                                           predicate: try ObjectPredicate(format: "ANY ingredients.name == %@", "Ingredient 3 of \(n)"))
                names = try context.fetch(request).map { try $0.string("name") ?? "" }
            } * 1000
            guard names == [String(format: "Recipe %06d", (n &* 7919) % recipes)] else {
                throw ValidationError("the recipes using ingredient 3 of \(n) came back as \(names)")
            }
            if run == 0 { anyFirstMs = ms } else { anyTimes.append(ms) }
        }

        // 6. The anchor: the same two fetches on the same documents in plain SQLite tables.
        let raw = try RawFetchAnchor(copying: store.documentStore, to: directory.appendingPathComponent("anchor.sqlite").path)
        var rawByTypeTimes: [Double] = []
        var rawIngredientTimes: [Double] = []
        for _ in 0..<repeats {
            var names: [String] = []
            rawByTypeTimes.append(try Self.seconds { names = try raw.recipes(ofType: "Dessert", limit: 50) } * 1000)
            guard names.count == min(50, recipes / Self.typeNames.count) else { throw ValidationError("the raw fetch by type found \(names.count)") }
            var orders: [Int64] = []
            rawIngredientTimes.append(try Self.seconds { orders = try raw.ingredients(ofRecipe: recipeID.referenceString) } * 1000)
            guard orders == Array(0..<8) else { throw ValidationError("the raw ingredients fetch found \(orders)") }
        }
        let rawByType = rawByTypeTimes.median
        let rawIngredients = rawIngredientTimes.median

        // 7. Typed properties against the string API on the same recipes (see
        // GraphBenchmark+Typed.swift), and 8. a typed observer of a store another process adds to.
        let access = try propertyAccess(coordinator: readCoordinator)
        let observation = try observeAcrossProcesses(in: directory)

        let graphRate = Double(objects) / graphSeconds
        let storeRate = Double(copied) / storeSeconds
        var figures: [(String, Double)] = [
            ("objects", Double(objects)),
            ("graph_insert_seconds", graphSeconds),
            ("graph_insert_objects_per_s", graphRate),
            ("graph_save_seconds", saveSeconds),
            ("store_insert_seconds", storeSeconds),
            ("store_insert_docs_per_s", storeRate),
            ("graph_slowdown", storeRate / graphRate),
            ("fetch_by_type_ms", byTypeTimes.median),
            ("fetch_by_type_first_ms", byTypeFirstMs),
            ("fetch_ingredients_ms", ingredientTimes.median),
            ("fetch_ingredients_first_ms", ingredientsFirstMs),
            ("fetch_any_ingredient_ms", anyTimes.median),
            ("fetch_any_ingredient_first_ms", anyFirstMs),
            ("raw_sqlite_by_type_ms", rawByType),
            ("raw_sqlite_ingredients_ms", rawIngredients),
            ("fetch_by_type_vs_raw_sqlite", byTypeTimes.median / rawByType),
            ("fetch_ingredients_vs_raw_sqlite", ingredientTimes.median / rawIngredients),
            ("typed_by_type_ms", typedByTypeTimes.median),
            ("typed_by_type_vs_string", typedByTypeTimes.median / byTypeTimes.median),
            ("typed_ingredients_ms", typedIngredientTimes.median),
            ("typed_ingredients_vs_string", typedIngredientTimes.median / ingredientTimes.median),
            ("property_objects", Double(access.objects)),
            ("property_read_string_ms", access.stringReadMs),
            ("property_read_typed_ms", access.typedReadMs),
            ("property_read_typed_vs_string", access.typedReadMs / access.stringReadMs),
            ("property_write_string_ms", access.stringWriteMs),
            ("property_write_typed_ms", access.typedWriteMs),
            ("property_write_typed_vs_string", access.typedWriteMs / access.stringWriteMs),
        ]
        if let observed = observation {
            figures += [
                ("observe_runs", Double(observed.runs)),
                ("observe_child_wall_ms", observed.childWallMs),
                ("observe_from_child_exit_ms", observed.fromExitMs),
                ("observe_from_child_exit_max_ms", observed.fromExitMaxMs),
                ("observe_from_child_start_ms", observed.fromStartMs),
                ("observe_from_exit_vs_child_wall", observed.fromExitMs / observed.childWallMs),
            ]
        }
        figures += [
            ("machine_speed_ms", machineSpeedMs),
            ("peak_rss_mb", PeakMemory.megabytes() ?? -1),
        ]
        for (name, value) in figures { print(name.padding(toLength: 32, withPad: " ", startingAt: 0) + String(format: "%.3f", value)) }
        if json {
            let members = figures.map { "\"\($0.0)\": \(String(format: "%.3f", $0.1))" }.joined(separator: ", ")
            try BenchmarkRecord.emit(benchmark: "graph", figures: "{" + members + "}")
        }
    }
}
