import Foundation
import GRDB
import Testing
@testable import RecipesKit
import TestSupport

@Suite("Core Data store reader")
struct CoreDataStoreReaderTests {
    /// Copies the fixture, applies `sql` to the copy, and returns the reader's error.
    private func error(after sql: String) throws -> CoreDataStoreError? {
        let directory = try TemporaryDirectory()
        let copy = try Fixtures.copyOfAppleStore(in: directory)
        let queue = try DatabaseQueue(path: copy.path)
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
        do {
            _ = try CoreDataStoreReader().read(storeAt: copy)
            return nil
        } catch {
            return error
        }
    }

    @Test("the original app's store: 7 recipes, 31 ingredients, 5 types, 7 images and thumbnails")
    func appleStore() throws {
        let directory = try TemporaryDirectory()
        let copy = try Fixtures.copyOfAppleStore(in: directory)
        let set = try CoreDataStoreReader().read(storeAt: copy)
        #expect(set.name == "Recipes")
        #expect(set.recipes.count == 7)
        #expect(set.ingredientCount == 31)
        #expect(set.types == ["Appetizer", "Entrée", "Soup", "Snack", "Dessert"])
        #expect(set.imageCount == 7)
        #expect(set.recipes.allSatisfy { $0.thumbnail != nil })

        let expected: [(name: String, type: String, ingredients: Int)] = [
            ("Chocolate Cake", "Dessert", 9), ("Three Berry Cobbler", "Dessert", 0), ("Macarons", "Dessert", 4),
            ("Ginger snaps", "Snack", 0), ("Gaufres de Liège", "Snack", 11), ("Crèpes Suzette", "Dessert", 4),
            ("Tarte aux Fraises", "Dessert", 3),
        ]
        #expect(set.recipes.map(\.name) == expected.map(\.name))
        for (recipe, want) in zip(set.recipes, expected) {
            #expect(recipe.type == want.type, "\(recipe.name)")
            #expect(recipe.ingredients.count == want.ingredients, "\(recipe.name)")
            for picture in [recipe.image, recipe.thumbnail] {
                let bytes = try #require(picture?.data)
                #expect(Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
                #expect(picture?.mimeType == "image/jpeg")
            }
        }

        let cake = try #require(set.recipe(named: "Chocolate Cake"))
        #expect(cake.prepTime == "1 hour")
        #expect(cake.ingredients.map(\.name) == [
            "Salt", "Water", "Butter", "Caster sugar", "Milk", "Cocoa powder", "Vanilla essence", "Eggs", "Self-raising flour",
        ])
        #expect(cake.ingredients.first?.amount == "3/4 teaspoon")
        #expect(cake.image?.data.count == 8149)
        #expect(cake.thumbnail?.data.count == 2271)
        #expect(set.recipe(named: "Macarons")?.ingredients.map(\.name) == ["Flour", "Sugar", "Butter", "Almond"])
        #expect(set.recipe(named: "Tarte aux Fraises")?.ingredients.map(\.amount)
            == ["1 cup", "2 baskets", "1"])
        #expect(set.recipe(named: "Gaufres de Liège")?.ingredients.last?.name == "All-purpose flour")
        #expect(set.recipe(named: "Crèpes Suzette")?.image?.data.count == 11654)
    }

    @Test("the given file is never opened in place and an explicit set name wins")
    func copiesTheStore() throws {
        let directory = try TemporaryDirectory()
        let copy = try Fixtures.copyOfAppleStore(in: directory, named: "Grandma's Recipes.sqlite")
        let before = try Data(contentsOf: copy)
        #expect(try CoreDataStoreReader().read(storeAt: copy).name == "Grandma's Recipes")
        #expect(try CoreDataStoreReader().read(storeAt: copy, setName: "old-app").name == "old-app")
        #expect(try Data(contentsOf: copy) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["Grandma's Recipes.sqlite"])
    }

    @Test("a dangling ZTYPE names the table, the row and the missing target")
    func danglingType() throws {
        let failure = try #require(try error(after: "UPDATE ZRECIPE SET ZTYPE = 99 WHERE Z_PK = 4"))
        guard case .danglingReference(_, "ZRECIPE", 4, "ZTYPE", "ZRECIPETYPE", 99) = failure else {
            Issue.record("unexpected error \(failure)")
            return
        }
        #expect(failure.row?.table == "ZRECIPE" && failure.row?.primaryKey == 4)
        #expect(failure.description.hasPrefix(
            "Recipes.sqlite: ZRECIPE row Z_PK=4: ZTYPE refers to ZRECIPETYPE Z_PK=99, which does not exist"))
    }

    @Test("dangling image and ingredient references")
    func otherDanglingReferences() throws {
        let image42 = try #require(try error(after: "UPDATE ZRECIPE SET ZIMAGE = 42 WHERE Z_PK = 3"))
        #expect(image42 == .danglingReference(
            path: image42.path, table: "ZRECIPE", primaryKey: 3, column: "ZIMAGE", targetTable: "ZIMAGE", targetKey: 42))
        let ingredient = try #require(try error(after: "UPDATE ZINGREDIENT SET ZRECIPE = 77 WHERE Z_PK = 12"))
        #expect(ingredient.row?.table == "ZINGREDIENT" && ingredient.row?.primaryKey == 12)
        #expect(ingredient.description.contains("ZRECIPE refers to ZRECIPE Z_PK=77"))
        let image = try #require(try error(after: "UPDATE ZIMAGE SET ZRECIPE = 500 WHERE Z_PK = 2; UPDATE ZRECIPE SET ZIMAGE = NULL WHERE Z_PK = 1"))
        #expect(image.description.contains("ZIMAGE row Z_PK=2: ZRECIPE refers to ZRECIPE Z_PK=500"))
    }

    @Test("an image and its recipe that do not point at each other")
    func brokenInverse() throws {
        let failure = try #require(try error(after: "UPDATE ZIMAGE SET ZRECIPE = 3 WHERE Z_PK = 2"))
        guard case .brokenInverse(_, "ZIMAGE", 2, "ZRECIPE", _) = failure else {
            Issue.record("unexpected error \(failure)")
            return
        }
        #expect(failure.description.contains("ZRECIPE row Z_PK=1 has this image"))
    }

    @Test("malformed rows: missing names, repeated names, bad image bytes, wrong entity number")
    func malformedRows() throws {
        let noName = try #require(try error(after: "UPDATE ZRECIPE SET ZNAME = NULL WHERE Z_PK = 5"))
        #expect(noName.description == "Recipes.sqlite: ZRECIPE row Z_PK=5: ZNAME is empty or NULL, but a name is required; fix or delete that row and import again")
        let twin = try #require(try error(after: "UPDATE ZRECIPE SET ZNAME = 'Macarons' WHERE Z_PK = 9"))
        #expect(twin.description.contains(#"ZRECIPE row Z_PK=9: ZNAME repeats the recipe name "Macarons" of row Z_PK=3"#))
        let twinType = try #require(try error(after: "UPDATE ZRECIPETYPE SET ZNAME = 'Soup' WHERE Z_PK = 4"))
        #expect(twinType.row?.table == "ZRECIPETYPE" && twinType.row?.primaryKey == 4)
        let picture = try #require(try error(after: "UPDATE ZIMAGE SET ZIMAGE = X'00010203' WHERE Z_PK = 3"))
        #expect(picture.description.contains("ZIMAGE row Z_PK=3: ZIMAGE holds 4 bytes that are neither PNG nor JPEG"))
        let thumbnail = try #require(try error(after: "UPDATE ZRECIPE SET ZTHUMBNAILIMAGE = 'text' WHERE Z_PK = 10"))
        #expect(thumbnail.row?.primaryKey == 10 && thumbnail.description.contains("ZTHUMBNAILIMAGE"))
        let entity = try #require(try error(after: "UPDATE ZINGREDIENT SET Z_ENT = 3 WHERE Z_PK = 31"))
        #expect(entity.description.contains("ZINGREDIENT row Z_PK=31: Z_ENT is 3, but Z_PRIMARYKEY numbers the entity Ingredient 2"))
        let order = try #require(try error(after: "UPDATE ZINGREDIENT SET ZDISPLAYORDER = 'first' WHERE Z_PK = 30"))
        #expect(order.description.contains("ZINGREDIENT row Z_PK=30: ZDISPLAYORDER is not an integer"))
    }

    @Test("rows that belong to no recipe are skipped")
    func orphans() throws {
        let directory = try TemporaryDirectory()
        let copy = try Fixtures.copyOfAppleStore(in: directory)
        let queue = try DatabaseQueue(path: copy.path)
        try queue.write { db in
            try db.execute(sql: "UPDATE ZINGREDIENT SET ZRECIPE = NULL WHERE Z_PK = 28")
            try db.execute(sql: "UPDATE ZRECIPE SET ZIMAGE = NULL WHERE Z_PK = 10; UPDATE ZIMAGE SET ZRECIPE = NULL WHERE Z_PK = 8")
        }
        try queue.close()
        let set = try CoreDataStoreReader().read(storeAt: copy)
        #expect(set.ingredientCount == 30)
        #expect(set.imageCount == 6)
        #expect(set.recipe(named: "Tarte aux Fraises")?.image == nil)
    }

    @Test("stores that are not Core Data recipe stores")
    func notARecipesStore() throws {
        let dropped = try #require(try error(after: "DROP TABLE ZIMAGE"))
        #expect(dropped.description == "Recipes.sqlite: not a Core Data store of the recipes model: the table ZIMAGE for entity Image is missing")
        let column = try #require(try error(after: "ALTER TABLE ZINGREDIENT DROP COLUMN ZAMOUNT"))
        #expect(column.description.hasSuffix("the table ZINGREDIENT has no column ZAMOUNT"))
        let entity = try #require(try error(after: "DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'RecipeType'"))
        #expect(entity.description.hasSuffix("Z_PRIMARYKEY has no entity named RecipeType"))

        let directory = try TemporaryDirectory()
        let plain = directory.file("plain.sqlite")
        let queue = try DatabaseQueue(path: plain.path)
        try queue.write { try $0.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)") }
        try queue.close()
        #expect(throws: CoreDataStoreError.notARecipesStore(
            path: plain.path, reason: "it has no Z_PRIMARYKEY table, so Core Data did not write it")) {
            try CoreDataStoreReader().read(storeAt: plain)
        }
    }

    @Test("missing files and files that are not SQLite")
    func unreadable() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.file("gone.sqlite")
        #expect(throws: CoreDataStoreError.unreadableStore(path: missing.path, reason: "no such file")) {
            try CoreDataStoreReader().read(storeAt: missing)
        }
        let text = try directory.write("notes.sqlite", String(repeating: "not a database ", count: 100))
        do {
            _ = try CoreDataStoreReader().read(storeAt: text)
            Issue.record("a text file was read as a store")
        } catch {
            guard case .unreadableStore(let path, let reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path == text.path)
            #expect(reason.contains("not a database"), "\(reason)")
        }
    }

    @Test("Core Data timestamps count seconds from 2001-01-01 UTC")
    func timestamps() {
        #expect(CoreDataStoreReader.date(fromCoreDataTimestamp: 0) == Date(timeIntervalSince1970: 978_307_200))
        #expect(CoreDataStoreReader.date(fromCoreDataTimestamp: 86_400).timeIntervalSince1970 == 978_393_600)
    }
}
