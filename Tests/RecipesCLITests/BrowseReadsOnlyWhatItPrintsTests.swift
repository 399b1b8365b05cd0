import DocumentStore
import Foundation
import GRDB
import Testing
import TestSupport
import DocumentFormat

/// Browse commands read only the documents they print. Each command runs on a copy of a
/// 400-recipe book in which every recipe and ingredient it has no reason to read has its
/// stored body replaced by bytes that are not JSON: a command that scans the book (a fetch
/// that lost its index, a page read whole) meets one and fails, so it fails here, without
/// timing anything. The control case shows the trap springs.
@Suite("Browse commands read only what they print", .serialized)
struct BrowseReadsOnlyWhatItPrintsTests {
    static let count = 400
    static let typeNames = ["Soup", "Dessert", "Entrée", "Salad"]

    static func name(_ index: Int) -> String { String(format: "Book Recipe %04d", index) }

    /// A sandbox with the book imported into `book.sqlite`.
    static func book() async throws -> Sandbox {
        let sandbox = try Sandbox("browse-reads")
        var recipes: [String] = []
        for index in 0..<count {
            recipes.append("""
                {"name": "\(name(index))", "type": "\(typeNames[index % typeNames.count])", "overview": "A plain dish.", \
                "prepTime": "\(10 + index % 50) minutes", "ingredients": [{"amount": "1", "name": "Flour"}, {"amount": "2", "name": "Eggs"}]}
                """)
        }
        let set = try sandbox.write("book.json", Data("{\"name\": \"book\", \"recipes\": [\(recipes.joined(separator: ",\n"))]}".utf8))
        let imported = try await sandbox.run(["import", set, "--store", sandbox.path("book.sqlite")])
        try #require(imported.status == 0, "\(imported)")
        return sandbox
    }

    /// Copies the book to `name` and makes every recipe not in `readable` (by name), and every
    /// ingredient of such a recipe, unreadable.
    static func trappedCopy(_ sandbox: Sandbox, _ name: String, readable: Set<String>) throws -> String {
        let copy = sandbox.path(name)
        let pool = try DatabasePool(path: sandbox.path("book.sqlite"))
        try pool.backup(to: try DatabaseQueue(path: copy))
        try pool.close()
        let queue = try DatabaseQueue(path: copy)
        try queue.write { db in
            var spared = Set<String>()
            var recipes: [(revNum: Int64, id: String, name: String)] = []
            var ingredients: [(revNum: Int64, recipe: String)] = []
            let rows = try Row.fetchCursor(db, sql: """
                SELECT r.rev_num, d.doc_id, r.body FROM docs d JOIN revs r ON r.rev_num = d.winner_rev_num
                WHERE d.doc_id LIKE 'CDTIS-Recipe-%' OR d.doc_id LIKE 'CDTIS-Ingredient-%'
                """)
            while let row = try rows.next() {
                let body = try JSONValue.parseObject(row[2])
                let id: String = row[1]
                if id.hasPrefix("CDTIS-Recipe-") {
                    recipes.append((row[0], id, body["name"]?.stringValue ?? ""))
                } else {
                    ingredients.append((row[0], body["recipe"]?.stringValue ?? ""))
                }
            }
            var trapped: [Int64] = []
            for recipe in recipes {
                if readable.contains(recipe.name) { spared.insert(recipe.id) } else { trapped.append(recipe.revNum) }
            }
            trapped += ingredients.filter { !spared.contains($0.recipe) }.map(\.revNum)
            for revNum in trapped {
                try db.execute(sql: "UPDATE revs SET body = ? WHERE rev_num = ?", arguments: [Data("{not json".utf8), revNum])
            }
        }
        try queue.close()
        return copy
    }

    /// Runs `arguments` on a trapped copy that spares `readable`.
    static func run(_ sandbox: Sandbox, _ label: String, _ arguments: [String], readable: Set<String>) async throws -> RunResult {
        let store = try trappedCopy(sandbox, "\(label).sqlite", readable: readable)
        return try await sandbox.run(arguments + ["--store", store, "--no-samples"])
    }

    @Test("list pages, show, types, status, a type filter and search each read only their rows; a whole listing springs the trap")
    func browseCommandsReadOnlyTheirRows() async throws {
        let sandbox = try await Self.book()

        let firstPage = try await Self.run(sandbox, "first", ["list", "--limit", "5", "--json"], readable: Set((0..<5).map(Self.name)))
        #expect(firstPage.status == 0, "\(firstPage)")
        #expect((try? firstPage.json() as? [[String: Any]])?.compactMap { $0["name"] as? String } == (0..<5).map(Self.name))

        let middle = try await Self.run(sandbox, "middle", ["list", "--limit", "5", "--offset", "200"], readable: Set((200..<205).map(Self.name)))
        #expect(middle.status == 0 && middle.stdout.contains(Self.name(204)), "\(middle)")

        let shown = try await Self.run(sandbox, "show", ["show", Self.name(123).lowercased()], readable: [Self.name(123)])
        #expect(shown.status == 0 && shown.stdout.contains("Flour"), "\(shown)")

        let types = try await Self.run(sandbox, "types", ["types"], readable: [])
        #expect(types.status == 0 && types.stdout.contains("Soup"), "\(types)")

        let status = try await Self.run(sandbox, "status", ["status", "--json"], readable: [])
        #expect(status.status == 0, "\(status)")

        let soups = (0..<Self.count).filter { $0 % Self.typeNames.count == 0 }.prefix(5).map(Self.name)
        let byType = try await Self.run(sandbox, "type", ["list", "--type", "soup", "--limit", "5"], readable: Set(soups))
        #expect(byType.status == 0 && byType.stdout.contains(soups[4]), "\(byType)")

        let searched = try await Self.run(sandbox, "search", ["list", "--search", "recipe 0317"], readable: [Self.name(317)])
        #expect(searched.status == 0 && searched.stdout.contains(Self.name(317)), "\(searched)")

        // The control: listing the whole book must read every recipe, and meets the trap.
        let whole = try await Self.run(sandbox, "whole", ["list", "--json"], readable: Set((0..<5).map(Self.name)))
        #expect(whole.status != 0, "a listing of the whole book read no trapped recipe: the trap does not work")
    }
}
