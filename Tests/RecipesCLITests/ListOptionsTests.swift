import Foundation
import Testing
import TestSupport

/// `recipes list` paging and search, global options before the subcommand, and bad input.
@Suite("recipes: list paging, search and option order", .serialized)
struct ListOptionsTests {
    @Test("global options work before the subcommand as well as after it")
    func globalOptionsEitherSide() async throws {
        let sandbox = try Sandbox()
        let store = sandbox.path("book.sqlite")
        let before = try await sandbox.run(["--store", store, "--no-samples", "add", "--name", "Weeknight Dal", "--ingredient", "200 g|red lentils"])
        #expect(before.status == 0, "\(before)")
        let after = try await sandbox.run(["list", "--json", "--store", store])
        let listed = try #require(try after.json() as? [[String: Any]])
        #expect(listed.map { $0["name"] as? String } == ["Weeknight Dal"])
        let equals = try await sandbox.run(["--store=\(store)", "--verbose", "show", "weeknight dal"])
        #expect(equals.status == 0 && equals.stdout.contains("red lentils"), "\(equals)")
        // Nothing was written to the default store: the option applied to the command.
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("data/recipes/recipes.sqlite")))
    }

    @Test("--limit and --offset page through the list, and search finds an ingredient word")
    func pagingAndSearch() async throws {
        let sandbox = try Sandbox()
        let store = sandbox.path("book.sqlite")
        let all = try #require(try await sandbox.run(["list", "--json", "--store", store]).json() as? [[String: Any]])
        #expect(all.count == 14)
        var paged: [String] = []
        for offset in stride(from: 0, to: 15, by: 4) {
            let page = try #require(try await sandbox.run(["list", "--json", "--limit", "4", "--offset", "\(offset)", "--store", store]).json() as? [[String: Any]])
            paged += page.compactMap { $0["id"] as? String }
        }
        #expect(paged == all.compactMap { $0["id"] as? String })
        let empty = try await sandbox.run(["list", "--offset", "100", "--store", store])
        #expect(empty.status == 0 && empty.stderr.contains("no recipe at offset 100"), "\(empty)")
        let basil = try await sandbox.run(["list", "--search", "BASÍL", "--json", "--store", store])
        let found = try #require(try basil.json() as? [[String: Any]])
        #expect(found.compactMap { $0["name"] as? String }.contains("Tomato Bruschetta"), "\(basil)")
        for text in ["\"", "*", "a OR b", "((", "NEAR(x y)"] {
            let odd = try await sandbox.run(["list", "--search", text, "--json", "--store", store])
            #expect(odd.status == 0, "\(text): \(odd)")
        }
    }

    @Test("the table lists every recipe once, its columns aligned by character even with combining accents")
    func tableColumns() async throws {
        let sandbox = try Sandbox()
        let store = sandbox.path("book.sqlite")
        // The longest name is written with combining accents: 3 characters fewer than its
        // UTF-16 length, so a table padded by UTF-16 length would cut it short.
        for name in ["Cre\u{300}me Bru\u{302}le\u{301}e with a Caramelised Sugar Top", "Zucchini Fritters", "Äpfel im Schlafrock"] {
            let added = try await sandbox.run(["add", "--name", name, "--type", "Dessert", "--prep-time", "1 hour", "--store", store])
            #expect(added.status == 0, "\(added)")
        }
        let json = try #require(try await sandbox.run(["list", "--json", "--store", store]).json() as? [[String: Any]])
        let table = try await sandbox.run(["list", "--store", store])
        #expect(table.status == 0, "\(table)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.first)
        #expect(header.hasPrefix("NAME") && header.hasSuffix("INGREDIENTS"))
        // One line per recipe, in the JSON list's order (the samples plus the three added).
        let rows = lines.dropFirst()
        #expect(rows.count == json.count && json.count == 17)
        let names = json.compactMap { $0["name"] as? String }
        for (row, name) in zip(rows, names) { #expect(row.hasPrefix(name + " "), "\(row)") }
        // Each row's type starts in the header's TYPE column, counted in characters, and no
        // line ends in a space.
        let typeColumn = try #require(header.range(of: "TYPE")).lowerBound.utf16Offset(in: header)
        for row in rows {
            let characters = Array(row)
            #expect(characters[typeColumn - 2] == " " && characters[typeColumn - 1] == " " && characters[typeColumn] != " ", "\(row)")
            #expect(row.last != " ")
        }
    }

    @Test("a negative or non-numeric page is a usage error (exit 64) and writes nothing")
    func badPages() async throws {
        let sandbox = try Sandbox()
        let store = sandbox.path("book.sqlite")
        for arguments in [["--limit", "-1"], ["--limit=-1"], ["--offset", "x"], ["--offset=-2"], ["--limit", "ten"]] {
            let result = try await sandbox.run(["list", "--store", store] + arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
        }
        // A negative number is read as the option's value, so the error names the real problem.
        let negative = try await sandbox.run(["list", "--store", store, "--limit", "-1"])
        #expect(negative.stderr.contains("--limit must be 0 or more, not -1"), "\(negative)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }
}
