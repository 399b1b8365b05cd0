import ArgumentParser
import DocumentIncrementalStore
import DocumentStore
import Foundation
import ObjectGraph

/// `recipes-bench graph`: recipes inserted through object-graph contexts into the
/// document-backed store, against the same documents written straight to a `DocumentStore`
/// in the same run; then the app's typical fetches: one type's recipes by name, one recipe's
/// ingredients in display order, and the recipes that use an ingredient (`ANY` through the
/// to-many).
struct GraphBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Insert recipes (8 ingredients, one of 5 types) through contexts and straight into the datastore; time three fetches.")

    @Option(name: .long, help: "Number of recipes.")
    var recipes = 10_000

    @Option(name: .long, help: "Recipes per context save.")
    var saveEvery = 500

    @Option(name: .long, help: "Times each fetch is run; the median is reported.")
    var repeats = 20

    @Option(name: .long, help: "Path of the .xcdatamodeld (default: Schemas/Recipes.xcdatamodeld of this package).")
    var model: String?

    @Flag(name: .long, help: "Also print one JSON object with the figures on the last line.")
    var json = false

    func validate() throws {
        guard recipes > 0, saveEvery > 0, repeats > 0 else { throw ValidationError("--recipes, --save-every and --repeats must be positive") }
    }

    private static let typeNames = ["Dessert", "Main", "Soup", "Salad", "Breakfast"]

    private func modelURL() -> URL {
        if let model { return URL(fileURLWithPath: model) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Schemas/Recipes.xcdatamodeld")
    }

    private static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    func run() throws {
        let objectModel = try ModelVersionSet.load(contentsOf: modelURL()).current
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-bench-graph-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let graphPath = directory.appendingPathComponent("graph.sqlite").path

        // 1. Through the object graph, and 2. the same documents straight into a DocumentStore
        // (same transaction sizes and indexes). The two are interleaved batch by batch so that
        // both see the same machine load.
        let store = try DocumentIncrementalStore(path: graphPath)
        let coordinator = try PersistentStoreCoordinator(model: objectModel, store: store)
        let rawStore = try DocumentStore(path: directory.appendingPathComponent("raw.sqlite").path)
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
        let readCoordinator = try PersistentStoreCoordinator(model: objectModel, store: DocumentIncrementalStore(path: graphPath))
        let byType = FetchRequest(entityName: "Recipe", predicate: try ObjectPredicate(format: "type.name == %@", "Dessert"),
                                  sortDescriptors: [FetchSortDescriptor("name")], fetchLimit: 50)
        var firstRecipe: ObjectID?
        var byTypeFirstMs = 0.0
        var byTypeTimes: [Double] = []
        for run in 0...repeats {
            let context = ObjectContext(coordinator: readCoordinator, name: "fetch")
            var names: [String] = []
            let ms = try Self.seconds {
                let found = try context.fetch(byType)
                names = try found.map { try $0.string("name") ?? "" }
                firstRecipe = found.first?.objectID
            } * 1000
            guard names.count == min(50, recipes / Self.typeNames.count), names == names.sorted() else {
                throw ValidationError("fetch by type returned \(names.count) recipes, unsorted or wrong")
            }
            if run == 0 { byTypeFirstMs = ms } else { byTypeTimes.append(ms) }
        }

        // 4. One recipe's ingredients in display order.
        guard let recipeID = firstRecipe else { throw ValidationError("no recipe found") }
        var ingredientTimes: [Double] = []
        var ingredientsFirstMs = 0.0
        for run in 0...repeats {
            let context = ObjectContext(coordinator: readCoordinator, name: "ingredients")
            var orders: [Int64] = []
            let ms = try Self.seconds {
                let recipe = try context.object(with: recipeID)
                let request = FetchRequest(entityName: "Ingredient", predicate: try ObjectPredicate(format: "recipe == %@", recipe),
                                           sortDescriptors: [FetchSortDescriptor("displayOrder")])
                orders = try context.fetch(request).map { try $0.int("displayOrder") ?? -1 }
            } * 1000
            guard orders == Array(0..<8) else { throw ValidationError("ingredients came back as \(orders)") }
            if run == 0 { ingredientsFirstMs = ms } else { ingredientTimes.append(ms) }
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

        let graphRate = Double(objects) / graphSeconds
        let storeRate = Double(copied) / storeSeconds
        let figures: [(String, Double)] = [
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
