import Foundation
import GRDB
import Testing
import TestSupport

@Suite("recipes: browse and edit", .serialized)
struct BrowseCommandTests {
    @Test("the very first `recipes list` creates the store in the XDG data folder and shows the seeded samples")
    func firstRunList() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.run(["list"])
        #expect(result.status == 0, "\(result)")
        #expect(FileManager.default.fileExists(atPath: sandbox.path("data/recipes/recipes.sqlite")))
        #expect(result.stdout.contains("Tomato Bruschetta") && result.stdout.contains("Banana Bread"), "\(result)")
        // The user is told, on stderr, where the recipes came from and how to start empty.
        #expect(result.stderr.contains("added the sample recipes (classics, weeknight") && result.stderr.contains("--no-samples"), "\(result)")
        let second = try await sandbox.run(["list", "--json"])
        let json = try #require(try second.json() as? [[String: Any]])
        #expect(json.count == 14)
        // Seeding happens once: a second run does not add copies, nor says it again.
        #expect(!second.stderr.contains("sample recipes"), "\(second)")
        let again = try #require(try await sandbox.run(["list", "--json"]).json() as? [[String: Any]])
        #expect(again.count == 14)
        let first = try #require(json.first)
        #expect(Set(first.keys) == ["id", "name", "type", "prepTime", "overview", "ingredientCount", "hasImage"])
    }

    @Test("--no-samples and RECIPES_NO_SAMPLES leave a new store empty, and it stays unseeded")
    func noSamples() async throws {
        let sandbox = try Sandbox()
        let store = sandbox.path("a.sqlite")
        #expect(try await sandbox.run(["list", "--json", "--store", store, "--no-samples"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        #expect(try await sandbox.run(["list", "--json", "--store", store]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        let other = sandbox.path("b.sqlite")
        let result = try await sandbox.run(["list", "--json"], environment: ["RECIPES_STORE": other, "RECIPES_NO_SAMPLES": "1"])
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(result)")
        #expect(FileManager.default.fileExists(atPath: other))
    }

    @Test("add, show, edit, delete and types, in text and JSON")
    func lifecycle() async throws {
        let sandbox = try Sandbox()
        let store = ["--store", sandbox.path("s.sqlite"), "--no-samples"]
        let image = try sandbox.write("pic.png", TestFixtures.pngBytes)
        let instructions = try sandbox.write("method.txt", Data("Mix.\nBake.".utf8))
        let added = try await sandbox.run(["add", "--name", "Pancakes", "--type", "Breakfast", "--overview", "Fluffy", "--prep-time", "20 minutes",
                                     "--instructions-file", instructions, "--ingredient", "200 g|flour", "--ingredient", "2|eggs",
                                     "--ingredient", "|salt", "--image", image] + store)
        #expect(added.status == 0, "\(added)")
        #expect(added.stdout.hasPrefix("added Pancakes (CDTIS-Recipe-"))

        let shown = try await sandbox.run(["show", "pancakes"] + store)
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("Breakfast") && shown.stdout.contains("20 minutes") && shown.stdout.contains("\(TestFixtures.pngBytes.count) bytes (image/png)"), "\(shown)")
        let flour = try #require(shown.stdout.range(of: "flour")), eggs = try #require(shown.stdout.range(of: "eggs"))
        #expect(flour.lowerBound < eggs.lowerBound)

        let details = try #require(try await sandbox.run(["show", "Pancakes", "--json"] + store).json() as? [String: Any])
        #expect(Set(details.keys) == ["id", "name", "type", "overview", "prepTime", "instructions", "ingredients", "image", "thumbnail",
                                     "notes", "notesEncrypted"])
        #expect(details["instructions"] as? String == "Mix.\nBake.")
        // The thumbnail made when the photo was added: an upright JPEG.
        #expect((details["thumbnail"] as? [String: Any])?["mimeType"] as? String == "image/jpeg")
        let lines = try #require(details["ingredients"] as? [[String: Any]])
        #expect(lines.map { $0["name"] as? String } == ["flour", "eggs", "salt"])
        #expect(lines[2]["amount"] is NSNull)
        #expect((details["image"] as? [String: Any])?["bytes"] as? Int == TestFixtures.pngBytes.count)

        let edited = try await sandbox.run(["edit", "Pancakes", "--name", "Crêpes", "--remove-ingredient", "EGGS", "--ingredient", "3|eggs",
                                      "--ingredient", "250 g|flour", "--type", "Dessert", "--clear-image"] + store)
        #expect(edited.status == 0, "\(edited)")
        let after = try #require(try await sandbox.run(["show", details["id"] as! String, "--json"] + store).json() as? [String: Any])
        #expect(after["name"] as? String == "Crêpes" && after["type"] as? String == "Dessert" && after["image"] is NSNull)
        let afterLines = try #require(after["ingredients"] as? [[String: Any]])
        #expect(afterLines.map { $0["name"] as? String } == ["flour", "salt", "eggs"])
        #expect(afterLines.map { $0["amount"] as? String } == ["250 g", nil, "3"])

        let types = try #require(try await sandbox.run(["types", "--json"] + store).json() as? [[String: Any]])
        #expect(types.map { $0["name"] as? String } == ["Breakfast", "Dessert"])
        #expect(types.map { $0["recipeCount"] as? Int } == [0, 1])
        #expect(try await sandbox.run(["types"] + store).stdout.contains("Dessert"))

        let deleted = try await sandbox.run(["delete", "crêpes"] + store)
        #expect(deleted.status == 0 && deleted.stdout.hasPrefix("deleted Crêpes"), "\(deleted)")
        #expect(try await sandbox.run(["list", "--json"] + store).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test("list filters by type and text and sorts by name, type and prep time")
    func listOptions() async throws {
        let sandbox = try Sandbox()
        let store = ["--store", sandbox.path("s.sqlite"), "--no-samples"]
        for (name, type, time) in [("Zucchini fritters", "Snack", "30 minutes"), ("Apple pie", "Dessert", "2 hours"), ("Borscht", "Soup", "45 min")] {
            #expect(try await sandbox.run(["add", "--name", name, "--type", type, "--prep-time", time] + store).status == 0)
        }
        func names(_ extra: [String]) async throws -> [String] {
            let rows = try #require(try await sandbox.run(["list", "--json"] + extra + store).json() as? [[String: Any]])
            return rows.compactMap { $0["name"] as? String }
        }
        #expect(try await names([]) == ["Apple pie", "Borscht", "Zucchini fritters"])
        #expect(try await names(["--sort", "prep-time"]) == ["Zucchini fritters", "Borscht", "Apple pie"])
        #expect(try await names(["--sort", "type"]) == ["Apple pie", "Zucchini fritters", "Borscht"])
        #expect(try await names(["--type", "soup"]) == ["Borscht"])
        #expect(try await names(["--search", "PIE"]) == ["Apple pie"])
        let table = try await sandbox.run(["list"] + store).stdout
        #expect(table.hasPrefix("NAME") && table.contains("2 hours"))
        #expect(try await sandbox.run(["list", "--sort", "colour"] + store).status != 0)
    }

    @Test("bad input fails with one line on stderr and changes nothing")
    func errorPaths() async throws {
        let sandbox = try Sandbox()
        let storePath = sandbox.path("s.sqlite")
        let store = ["--store", storePath, "--no-samples"]
        #expect(try await sandbox.run(["add", "--name", "Soup"] + store).status == 0)
        #expect(try await sandbox.run(["add", "--name", "SOUP"] + store).status == 0)
        let before = try await sandbox.run(["list", "--json"] + store).stdout

        func expectFailure(_ arguments: [String], mentioning text: String) async throws {
            let result = try await sandbox.run(arguments + store)
            #expect(result.status != 0, "\(arguments): \(result)")
            #expect(result.stderr.contains(text), "\(arguments): \(result)")
            #expect(result.stderr.trimmingCharacters(in: .newlines).split(separator: "\n").count == 1, "\(arguments): \(result)")
        }
        try await expectFailure(["show", "Gazpacho"], mentioning: "no recipe named")
        try await expectFailure(["delete", "Gazpacho"], mentioning: "no recipe named")
        try await expectFailure(["show", "soup"], mentioning: "matches 2 recipes")
        try await expectFailure(["edit", "soup", "--overview", "x"], mentioning: "matches 2 recipes")
        try await expectFailure(["add", "--name", "Stew", "--ingredient", "2 carrots"], mentioning: "malformed ingredient")
        try await expectFailure(["add", "--name", "Stew", "--image", sandbox.path("missing.png")], mentioning: "cannot read")
        let notImage = try sandbox.write("note.png", Data("hello".utf8))
        try await expectFailure(["add", "--name", "Stew", "--image", notImage], mentioning: "not a PNG or JPEG")
        try await expectFailure(["add", "--name", "Soup"], mentioning: "already exists")
        try await expectFailure(["add", "--name", "  "], mentioning: "name")
        try await expectFailure(["edit", "Soup", "--remove-ingredient", "salt"], mentioning: "no ingredient named")
        try await expectFailure(["edit", "Soup"], mentioning: "nothing to change")
        try await expectFailure(["add", "--name", "Stew", "--instructions-file", sandbox.path("nope.txt")], mentioning: "cannot read")
        let usage = try await sandbox.run(["add", "--name", "Stew", "--instructions", "x", "--instructions-file", "y"] + store)
        #expect(usage.status != 0 && usage.stderr.contains("not both"))
        #expect(try await sandbox.run(["list", "--json"] + store).stdout == before)
    }

    @Test("an unusable configuration is a one-line error")
    func badConfiguration() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("config/recipes/recipes.json", Data("{\"remote\": 42}".utf8))
        let result = try await sandbox.run(["list", "--store", sandbox.path("s.sqlite")])
        #expect(result.status != 0 && result.stderr.contains("malformed"), "\(result)")
        let remote = try await sandbox.run(["status", "--store", sandbox.path("s.sqlite"), "--remote", "ftp://user:secret@host/db"])
        #expect(remote.status != 0 && !remote.stderr.contains("secret") && remote.stderr.contains("***"), "\(remote)")
    }

    @Test("a store file that is not ours or is cut short: one line naming the file and the problem, exit 1, nothing written")
    func unusableStoreFile() async throws {
        let sandbox = try Sandbox()
        let store = ["--store", sandbox.path("good.sqlite"), "--no-samples"]
        #expect(try await sandbox.run(["add", "--name", "Pho"] + store).status == 0)
        // Fold the write-ahead log into the file, so that cutting the file cuts the store.
        try await DatabaseQueue(path: sandbox.path("good.sqlite")).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let good = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("good.sqlite")))
        // SQLite databases of another program: one in the default journal mode, one in WAL.
        var others: [Data] = []
        for (name, wal) in [("other.db", false), ("other-wal.db", true)] {
            let queue = try DatabaseQueue(path: sandbox.path(name))
            try await queue.writeWithoutTransaction { db in
                if wal { try db.execute(sql: "PRAGMA journal_mode = WAL") }
                try db.execute(sql: "CREATE TABLE shopping (item TEXT); INSERT INTO shopping VALUES ('eggs')")
                if wal { try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            }
            try queue.close()
            others.append(try Data(contentsOf: URL(fileURLWithPath: sandbox.path(name))))
        }
        let cases = [
            ("notes.sqlite", Data("shopping: eggs, milk, flour\n".utf8), "is not a store"),
            ("cut.sqlite", good.prefix(good.count / 2), "is damaged"),
            ("another.sqlite", others[0], "is not a store: it is an SQLite database of another program"),
            ("another-wal.sqlite", others[1], "is not a store: it is an SQLite database of another program (its tables: shopping)"),
        ]
        for (name, bytes, problem) in cases {
            let path = try sandbox.write(name, bytes)
            for command in [["list"], ["add", "--name", "Stew"]] {
                let result = try await sandbox.run(command + ["--store", path, "--no-samples"])
                #expect(result.status == 1, "\(name) \(command): \(result)")
                let lines = result.stderr.trimmingCharacters(in: .newlines).split(separator: "\n")
                #expect(lines.count == 1 && lines[0].contains(path) && lines[0].contains(problem), "\(name) \(command): \(result)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "\(name) was written to")
            }
        }
    }

    @Test("a write while another process holds the store's write lock: one line naming the file, exit 1 within seconds, nothing written; reads go on")
    func lockedStore() async throws {
        let sandbox = try Sandbox()
        let path = sandbox.path("book.sqlite")
        let store = ["--store", path, "--no-samples"]
        #expect(try await sandbox.run(["add", "--name", "Pho"] + store).status == 0)
        // Another writer (as a long import would) holds the write lock throughout.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: path, configuration: configuration)
        try await holder.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let start = ContinuousClock.now
        let add = try await sandbox.run(["add", "--name", "Stew"] + store)
        let waited = ContinuousClock.now - start
        #expect(add.status == 1, "\(add)")
        let lines = add.stderr.trimmingCharacters(in: .newlines).split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(path) && lines[0].contains("locked by another process"), "\(add)")
        // The command gives up after its short wait (0.75 s) plus its start, not after the
        // 30 s a sync waits: the bound only tells the two apart, however busy the machine.
        #expect(waited < .seconds(25), "waited \(waited)")
        let list = try await sandbox.run(["list", "--json"] + store)
        #expect(list.status == 0, "reading is not blocked by a writer: \(list)")
        try await holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        try holder.close()
        let names = try #require(try await sandbox.run(["list", "--json"] + store).json() as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(names == ["Pho"], "nothing was written")
    }
}
