import ArgumentParser
import Foundation
import GRDB

/// What Debian's `sqlite3` shell does nearest to each `recipes` command, on the same store
/// file: the anchors `recipes-bench cli` times in the same run, so its figures are ratios that
/// compare across machines. The SQL reads the store's own tables and indexes, the way the
/// store would at best: a winning body is `revs.body` of `docs.winner_rev_num`, and a
/// relationship's index is the `query_index_N` table named in `query_indexes`.
struct SQLiteShellAnchor {
    /// The label printed beside a command's figure.
    let label: String
    /// The SQL the shell runs (its output goes to /dev/null, as the command's does).
    let sql: String

    /// Where the shell is.
    static let shell = "/usr/bin/sqlite3"

    /// Whether the shell is installed (Debian's `sqlite3` package).
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: shell) }

    /// Runs the anchor once on `store` as a fresh `sqlite3` process.
    func run(on store: String) throws -> ChildProcess.Outcome {
        try ChildProcess.run(Self.shell, [store, sql])
    }

    /// The anchors of one store, read from its index catalogue.
    struct Catalogue {
        let byEntity: String
        let byTypeAndName: String
        let ingredientsByRecipe: String
        let middleRecipeID: String
        let soupTypeID: String

        init(store: String, middleRecipeName: String) throws {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: store, configuration: configuration)
            let tables = try queue.read { db in
                try Dictionary(Row.fetchAll(db, sql: "SELECT name, index_num FROM query_indexes").map { row -> (String, String) in
                    (row["name"], "query_index_\(row["index_num"] as Int64)")
                }, uniquingKeysWith: { first, _ in first })
            }
            func table(_ name: String) throws -> String {
                guard let table = tables[name] else { throw ValidationError("the store has no index \(name)") }
                return table
            }
            byEntity = try table("cdtis_CDTISEntityName")
            byTypeAndName = try table("cdtis_Recipe#byTypeAndNameIndex")
            ingredientsByRecipe = try table("cdtis_Ingredient.recipe")
            let winner = "SELECT d.doc_id FROM docs d JOIN revs r ON r.rev_num = d.winner_rev_num WHERE d.deleted = 0 AND d.doc_id LIKE ? AND json_extract(r.body, '$.name') = ?"
            (middleRecipeID, soupTypeID) = try queue.read { db in
                guard let recipe = try String.fetchOne(db, sql: winner, arguments: ["CDTIS-Recipe-%", middleRecipeName]),
                      let soup = try String.fetchOne(db, sql: winner, arguments: ["CDTIS-RecipeType-%", "Soup"])
                else { throw ValidationError("the store has no recipe \(middleRecipeName) or no type Soup") }
                return (recipe, soup)
            }
        }

        /// An index key as the store encodes a string: a type byte, UTF-8, two zero bytes.
        private static func key(_ text: String) -> String {
            "X'05" + Data(text.utf8).map { String(format: "%02X", $0) }.joined() + "0000'"
        }

        /// The winning bodies of the documents whose numbers `numbers` selects.
        private static func bodies(of numbers: String) -> String {
            "SELECT r.body FROM docs d JOIN revs r ON r.rev_num = d.winner_rev_num WHERE d.doc_num IN (\(numbers));"
        }

        /// Opening the file and answering a constant.
        var selectOne: SQLiteShellAnchor { SQLiteShellAnchor(label: "sqlite3: select 1", sql: "SELECT 1;") }

        /// One document's winning body, looked up by its ID's index.
        var oneIndexedRow: SQLiteShellAnchor {
            SQLiteShellAnchor(label: "sqlite3: one indexed row",
                              sql: "SELECT r.body FROM docs d JOIN revs r ON r.rev_num = d.winner_rev_num WHERE d.doc_id = '\(middleRecipeID)';")
        }

        /// Every live document's winning body.
        var allLiveBodies: SQLiteShellAnchor {
            SQLiteShellAnchor(label: "sqlite3: every live body",
                              sql: "SELECT r.body FROM docs d JOIN revs r ON r.rev_num = d.winner_rev_num WHERE d.deleted = 0;")
        }

        /// Every recipe's winning body, found by the entity index.
        var allRecipeBodies: SQLiteShellAnchor {
            SQLiteShellAnchor(label: "sqlite3: every recipe's body",
                              sql: Self.bodies(of: "SELECT doc_num FROM \(byEntity) WHERE k0 = \(Self.key("Recipe"))"))
        }

        /// The bodies of the Soup recipes (the first `limit`, by name, when given) and of
        /// their ingredients, found by the type and the ingredient indexes.
        func soupWithIngredients(limit: Int? = nil) -> SQLiteShellAnchor {
            let recipes = "SELECT doc_num FROM \(byTypeAndName) WHERE k0 = \(Self.key(soupTypeID)) ORDER BY k1" + (limit.map { " LIMIT \($0)" } ?? "")
            let ingredients = "SELECT i.doc_num FROM \(ingredientsByRecipe) i WHERE i.k0 IN "
                + "(SELECT CAST(X'05' || d.doc_id || X'0000' AS BLOB) FROM docs d WHERE d.doc_num IN (\(recipes)))"
            return SQLiteShellAnchor(label: "sqlite3: Soup recipes' and ingredients' bodies" + (limit.map { " (\($0))" } ?? ""),
                                     sql: Self.bodies(of: recipes) + " " + Self.bodies(of: ingredients))
        }
    }
}
