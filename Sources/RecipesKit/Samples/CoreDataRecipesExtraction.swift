import Foundation
import GRDB
import Logging

/// The work of ``CoreDataStoreReader`` inside one read transaction: check the schema, load
/// every row, check every relationship, and assemble the ``SampleSet``.
struct CoreDataRecipesExtraction {
    let db: Database
    let path: String
    let logger: Logger

    /// The tables and columns the recipes model gives a Core Data store.
    static let requiredColumns: [(table: String, entity: String, columns: [String])] = [
        ("ZRECIPE", "Recipe", ["Z_PK", "Z_ENT", "ZNAME", "ZOVERVIEW", "ZINSTRUCTIONS", "ZPREPTIME", "ZTHUMBNAILIMAGE", "ZTYPE", "ZIMAGE"]),
        ("ZINGREDIENT", "Ingredient", ["Z_PK", "Z_ENT", "ZNAME", "ZAMOUNT", "ZDISPLAYORDER", "ZRECIPE"]),
        ("ZRECIPETYPE", "RecipeType", ["Z_PK", "Z_ENT", "ZNAME"]),
        ("ZIMAGE", "Image", ["Z_PK", "Z_ENT", "ZIMAGE", "ZRECIPE"]),
    ]

    private var entityNumbers: [String: Int64] = [:]

    init(db: Database, path: String, logger: Logger) {
        self.db = db
        self.path = path
        self.logger = logger
    }

    private struct RecipeRow {
        var key: Int64
        var recipe: SampleRecipe
        var typeKey: Int64?
        var imageKey: Int64?
    }

    private struct ImageRow {
        var key: Int64
        var recipeKey: Int64?
        var image: SampleImage?
    }

    mutating func sampleSet(named name: String) throws -> SampleSet {
        try checkSchema()

        var typeNames: [Int64: String] = [:]
        var orderedTypes: [String] = []
        var typeKeyForName: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_PK, Z_ENT, ZNAME FROM ZRECIPETYPE ORDER BY Z_PK") {
            let key = try primaryKey(row, table: "ZRECIPETYPE")
            try checkEntity(row, table: "ZRECIPETYPE", key: key)
            let typeName = try requiredText(row, "ZNAME", table: "ZRECIPETYPE", key: key)
            if let other = typeKeyForName[typeName] {
                throw CoreDataStoreError.malformedRow(
                    path: path, table: "ZRECIPETYPE", primaryKey: key, column: "ZNAME",
                    problem: "repeats the type name \"\(typeName)\" of row Z_PK=\(other)")
            }
            typeKeyForName[typeName] = key
            typeNames[key] = typeName
            orderedTypes.append(typeName)
        }

        var images: [Int64: ImageRow] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_PK, Z_ENT, ZRECIPE, ZIMAGE FROM ZIMAGE ORDER BY Z_PK") {
            let key = try primaryKey(row, table: "ZIMAGE")
            try checkEntity(row, table: "ZIMAGE", key: key)
            images[key] = ImageRow(
                key: key,
                recipeKey: try optionalInteger(row, "ZRECIPE", table: "ZIMAGE", key: key),
                image: try optionalImage(row, "ZIMAGE", table: "ZIMAGE", key: key))
        }

        var recipes: [RecipeRow] = []
        var recipeIndexForKey: [Int64: Int] = [:]
        var recipeKeyForName: [String: Int64] = [:]
        let recipeSQL = """
            SELECT Z_PK, Z_ENT, ZNAME, ZOVERVIEW, ZINSTRUCTIONS, ZPREPTIME, ZTHUMBNAILIMAGE, ZTYPE, ZIMAGE
            FROM ZRECIPE ORDER BY Z_PK
            """
        for row in try Row.fetchAll(db, sql: recipeSQL) {
            let key = try primaryKey(row, table: "ZRECIPE")
            try checkEntity(row, table: "ZRECIPE", key: key)
            let recipeName = try requiredText(row, "ZNAME", table: "ZRECIPE", key: key)
            if let other = recipeKeyForName[recipeName] {
                throw CoreDataStoreError.malformedRow(
                    path: path, table: "ZRECIPE", primaryKey: key, column: "ZNAME",
                    problem: "repeats the recipe name \"\(recipeName)\" of row Z_PK=\(other)")
            }
            recipeKeyForName[recipeName] = key
            let typeKey = try optionalInteger(row, "ZTYPE", table: "ZRECIPE", key: key)
            if let typeKey, typeNames[typeKey] == nil {
                throw CoreDataStoreError.danglingReference(
                    path: path, table: "ZRECIPE", primaryKey: key, column: "ZTYPE", targetTable: "ZRECIPETYPE", targetKey: typeKey)
            }
            let imageKey = try optionalInteger(row, "ZIMAGE", table: "ZRECIPE", key: key)
            if let imageKey {
                guard let image = images[imageKey] else {
                    throw CoreDataStoreError.danglingReference(
                        path: path, table: "ZRECIPE", primaryKey: key, column: "ZIMAGE", targetTable: "ZIMAGE", targetKey: imageKey)
                }
                if image.recipeKey != key {
                    throw CoreDataStoreError.brokenInverse(
                        path: path, table: "ZIMAGE", primaryKey: imageKey, column: "ZRECIPE",
                        problem: "is \(image.recipeKey.map { "Z_PK=\($0)" } ?? "NULL"), but ZRECIPE row Z_PK=\(key) has this image")
                }
            }
            let recipe = SampleRecipe(
                name: recipeName,
                type: typeKey.flatMap { typeNames[$0] },
                overview: try optionalText(row, "ZOVERVIEW", table: "ZRECIPE", key: key),
                prepTime: try optionalText(row, "ZPREPTIME", table: "ZRECIPE", key: key),
                instructions: try optionalText(row, "ZINSTRUCTIONS", table: "ZRECIPE", key: key),
                ingredients: [],
                image: imageKey.flatMap { images[$0]?.image },
                thumbnail: try optionalImage(row, "ZTHUMBNAILIMAGE", table: "ZRECIPE", key: key))
            recipeIndexForKey[key] = recipes.count
            recipes.append(RecipeRow(key: key, recipe: recipe, typeKey: typeKey, imageKey: imageKey))
        }

        for image in images.values.sorted(by: { $0.key < $1.key }) {
            guard let recipeKey = image.recipeKey else {
                logger.warning("skipping an image that belongs to no recipe", metadata: ["store": "\(path)", "ZIMAGE.Z_PK": "\(image.key)"])
                continue
            }
            guard let index = recipeIndexForKey[recipeKey] else {
                throw CoreDataStoreError.danglingReference(
                    path: path, table: "ZIMAGE", primaryKey: image.key, column: "ZRECIPE", targetTable: "ZRECIPE", targetKey: recipeKey)
            }
            if recipes[index].imageKey != image.key {
                throw CoreDataStoreError.brokenInverse(
                    path: path, table: "ZIMAGE", primaryKey: image.key, column: "ZRECIPE",
                    problem: "is Z_PK=\(recipeKey), but that recipe's ZIMAGE is \(recipes[index].imageKey.map { "Z_PK=\($0)" } ?? "NULL")")
            }
        }

        let ingredientSQL = """
            SELECT Z_PK, Z_ENT, ZNAME, ZAMOUNT, ZDISPLAYORDER, ZRECIPE
            FROM ZINGREDIENT ORDER BY ZRECIPE, ZDISPLAYORDER, Z_PK
            """
        for row in try Row.fetchAll(db, sql: ingredientSQL) {
            let key = try primaryKey(row, table: "ZINGREDIENT")
            try checkEntity(row, table: "ZINGREDIENT", key: key)
            let ingredient = SampleIngredient(
                amount: try optionalText(row, "ZAMOUNT", table: "ZINGREDIENT", key: key),
                name: try requiredText(row, "ZNAME", table: "ZINGREDIENT", key: key))
            _ = try optionalInteger(row, "ZDISPLAYORDER", table: "ZINGREDIENT", key: key)
            guard let recipeKey = try optionalInteger(row, "ZRECIPE", table: "ZINGREDIENT", key: key) else {
                logger.warning("skipping an ingredient that belongs to no recipe", metadata: ["store": "\(path)", "ZINGREDIENT.Z_PK": "\(key)"])
                continue
            }
            guard let index = recipeIndexForKey[recipeKey] else {
                throw CoreDataStoreError.danglingReference(
                    path: path, table: "ZINGREDIENT", primaryKey: key, column: "ZRECIPE", targetTable: "ZRECIPE", targetKey: recipeKey)
            }
            recipes[index].recipe.ingredients.append(ingredient)
        }

        return SampleSet(name: name, types: orderedTypes, recipes: recipes.map(\.recipe))
    }

    // MARK: - Schema

    private mutating func checkSchema() throws {
        guard try db.tableExists("Z_PRIMARYKEY") else {
            throw CoreDataStoreError.notARecipesStore(path: path, reason: "it has no Z_PRIMARYKEY table, so Core Data did not write it")
        }
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY") {
            if let number = Int64.fromDatabaseValue(row["Z_ENT"]), let name = String.fromDatabaseValue(row["Z_NAME"]) {
                entityNumbers[name] = number
            }
        }
        for (table, entity, columns) in Self.requiredColumns {
            guard entityNumbers[entity] != nil else {
                throw CoreDataStoreError.notARecipesStore(path: path, reason: "Z_PRIMARYKEY has no entity named \(entity)")
            }
            guard try db.tableExists(table) else {
                throw CoreDataStoreError.notARecipesStore(path: path, reason: "the table \(table) for entity \(entity) is missing")
            }
            let present = Set(try db.columns(in: table).map { $0.name.uppercased() })
            if let missing = columns.first(where: { !present.contains($0) }) {
                throw CoreDataStoreError.notARecipesStore(path: path, reason: "the table \(table) has no column \(missing)")
            }
        }
    }

    // MARK: - Values

    private func primaryKey(_ row: Row, table: String) throws -> Int64 {
        let value: DatabaseValue = row["Z_PK"]
        guard case .int64(let key) = value.storage else {
            throw CoreDataStoreError.notARecipesStore(path: path, reason: "the table \(table) has a row whose Z_PK is not an integer")
        }
        return key
    }

    private func checkEntity(_ row: Row, table: String, key: Int64) throws {
        guard let entity = Self.requiredColumns.first(where: { $0.table == table })?.entity,
              let expected = entityNumbers[entity] else { return }
        let found = try optionalInteger(row, "Z_ENT", table: table, key: key)
        guard found == expected else {
            throw CoreDataStoreError.malformedRow(
                path: path, table: table, primaryKey: key, column: "Z_ENT",
                problem: "is \(found.map(String.init) ?? "NULL"), but Z_PRIMARYKEY numbers the entity \(entity) \(expected)")
        }
    }

    private func optionalText(_ row: Row, _ column: String, table: String, key: Int64) throws -> String? {
        let value: DatabaseValue = row[column]
        switch value.storage {
        case .null:
            return nil
        case .string(let text):
            return text
        case .blob(let data):
            if let text = String(data: data, encoding: .utf8) { return text }
            throw CoreDataStoreError.malformedRow(
                path: path, table: table, primaryKey: key, column: column, problem: "holds bytes that are not UTF-8 text")
        case .int64, .double:
            throw CoreDataStoreError.malformedRow(
                path: path, table: table, primaryKey: key, column: column, problem: "holds a number where text is expected")
        }
    }

    private func requiredText(_ row: Row, _ column: String, table: String, key: Int64) throws -> String {
        guard let text = try optionalText(row, column, table: table, key: key),
              !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw CoreDataStoreError.malformedRow(
                path: path, table: table, primaryKey: key, column: column, problem: "is empty or NULL, but a name is required")
        }
        return text
    }

    private func optionalInteger(_ row: Row, _ column: String, table: String, key: Int64) throws -> Int64? {
        let value: DatabaseValue = row[column]
        switch value.storage {
        case .null:
            return nil
        case .int64(let number):
            return number
        case .double(let number) where number.rounded() == number && abs(number) < 9e15:
            return Int64(number)
        default:
            throw CoreDataStoreError.malformedRow(
                path: path, table: table, primaryKey: key, column: column, problem: "is not an integer")
        }
    }

    private func optionalImage(_ row: Row, _ column: String, table: String, key: Int64) throws -> SampleImage? {
        let value: DatabaseValue = row[column]
        switch value.storage {
        case .null:
            return nil
        case .blob(let data):
            guard let image = SampleImage(data: data) else {
                throw CoreDataStoreError.malformedRow(
                    path: path, table: table, primaryKey: key, column: column,
                    problem: "holds \(data.count) bytes that are neither PNG nor JPEG")
            }
            return image
        default:
            throw CoreDataStoreError.malformedRow(
                path: path, table: table, primaryKey: key, column: column, problem: "is not a BLOB of image bytes")
        }
    }
}
