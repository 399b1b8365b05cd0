import DocumentStore
import Foundation
import GRDB
import DocumentFormat

/// The floor for `recipes-bench graph`'s fetches: the same documents in plain SQLite tables
/// (one per entity, the relationship keys and sort keys as indexed columns, the JSON body
/// beside them), and the same two fetches as hand-written SQL that reads and parses the
/// bodies, timed in the same run. A fetch through the object graph costs a ratio of this.
struct RawFetchAnchor {
    private let queue: DatabaseQueue

    /// Copies every recipe, ingredient and type of `store` into plain tables at `path`.
    init(copying store: DocumentStore, to path: String) throws {
        queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE type(id TEXT PRIMARY KEY, name TEXT, body BLOB);
                CREATE TABLE recipe(id TEXT PRIMARY KEY, type TEXT, name TEXT, body BLOB);
                CREATE TABLE ingredient(id TEXT PRIMARY KEY, recipe TEXT, display_order INTEGER, body BLOB);
                CREATE INDEX type_by_name ON type(name);
                CREATE INDEX recipe_by_type_name ON recipe(type, name);
                CREATE INDEX ingredient_by_recipe ON ingredient(recipe, display_order);
                """)
            var after: String?
            while true {
                // Pages by ID from the last one seen (the start key is inclusive).
                let page = try store.allDocuments(AllDocsOptions(startKey: after, limit: 5_000)).filter { document in
                    after.map { document.id > $0 } ?? true
                }
                guard let last = page.last else { break }
                for document in page {
                    let body = document.body
                    let text = JSONValue.object(body).jsonData()
                    switch body["CDTISEntityName"]?.stringValue {
                    case "RecipeType":
                        try db.execute(sql: "INSERT INTO type VALUES (?, ?, ?)", arguments: [document.id, body["name"]?.stringValue, text])
                    case "Recipe":
                        try db.execute(sql: "INSERT INTO recipe VALUES (?, ?, ?, ?)",
                                       arguments: [document.id, body["type"]?.stringValue, body["name"]?.stringValue, text])
                    case "Ingredient":
                        try db.execute(sql: "INSERT INTO ingredient VALUES (?, ?, ?, ?)",
                                       arguments: [document.id, body["recipe"]?.stringValue, body["displayOrder"]?.intValue, text])
                    default:
                        break
                    }
                }
                after = last.id
            }
        }
    }

    /// The recipes of type `typeName`, first `limit` by name, bodies parsed; their names.
    func recipes(ofType typeName: String, limit: Int) throws -> [String] {
        try queue.read { db in
            try Data.fetchAll(db, sql: """
                SELECT r.body FROM type t JOIN recipe r ON r.type = t.id WHERE t.name = ? ORDER BY r.name LIMIT ?
                """, arguments: [typeName, limit]).map { try JSONValue.parseObject($0)["name"]?.stringValue ?? "" }
        }
    }

    /// The ingredients of recipe `id` in display order, bodies parsed; their orders.
    func ingredients(ofRecipe id: String) throws -> [Int64] {
        try queue.read { db in
            try Data.fetchAll(db, sql: "SELECT body FROM ingredient WHERE recipe = ? ORDER BY display_order", arguments: [id])
                .map { try JSONValue.parseObject($0)["displayOrder"]?.intValue ?? -1 }
        }
    }
}
