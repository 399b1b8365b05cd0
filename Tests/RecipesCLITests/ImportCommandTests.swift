import Foundation
import Testing
import TestSupport

@Suite("recipes import", .serialized)
struct ImportCommandTests {
    /// A copy of the shipped sample sets in the sandbox.
    private func sampleData(in sandbox: Sandbox) throws -> String {
        let target = sandbox.root.appendingPathComponent("SampleData")
        try FileManager.default.copyItem(at: CLIBinary.packageRoot.appendingPathComponent("SampleData").resolvingSymlinksInPath(), to: target)
        return target.path
    }

    @Test("import as the first command does not seed; --dry-run writes nothing; a second import changes nothing")
    func importSet() async throws {
        let sandbox = try Sandbox()
        let folder = try sampleData(in: sandbox)
        let store = ["--store", sandbox.path("s.sqlite")]
        let dryRun = try await sandbox.run(["import", folder + "/classics.json", "--dry-run"] + store)
        #expect(dryRun.status == 0, "\(dryRun)")
        #expect(dryRun.stdout.contains("would create Recipe \"Tomato Bruschetta\""), "\(dryRun)")
        #expect(dryRun.stdout.contains("dry run of classics: would create"), "\(dryRun)")
        let plan = try #require(try await sandbox.run(["import", folder + "/classics.json", "--dry-run", "--json"] + store).json() as? [String: Any])
        #expect(Set(plan.keys) == ["sets", "changes", "created", "updated", "unchanged", "skipped"])
        let created = try #require(plan["created"] as? Int)
        #expect(created > 8)

        let first = try await sandbox.run(["import", folder + "/classics.json"] + store)
        #expect(first.status == 0 && first.stdout.contains("imported classics: created \(created)"), "\(first)")
        let recipes = try #require(try await sandbox.run(["list", "--json"] + store).json() as? [[String: Any]])
        #expect(recipes.count == 8)
        let second = try #require(try await sandbox.run(["import", folder + "/classics.json", "--json"] + store).json() as? [String: Any])
        #expect(second["created"] as? Int == 0 && second["updated"] as? Int == 0 && second["unchanged"] as? Int == created)
    }

    @Test("a folder of sets and the Core Data fixture import through the object graph")
    func importFolderAndCoreData() async throws {
        let sandbox = try Sandbox()
        let folder = try sampleData(in: sandbox)
        let store = ["--store", sandbox.path("s.sqlite")]
        #expect(try await sandbox.run(["import", folder] + store).status == 0)
        #expect((try await sandbox.run(["list", "--json"] + store).json() as? [[String: Any]])?.count == 14)

        let fixture = sandbox.path("Recipes.sqlite")
        try FileManager.default.copyItem(atPath: TestFixtures.appleRecipesStore.path, toPath: fixture)
        let other = ["--store", sandbox.path("t.sqlite")]
        let result = try await sandbox.run(["import", fixture, "--json"] + other)
        #expect(result.status == 0, "\(result)")
        #expect((try result.json() as? [String: Any])?["created"] as? Int == 50)
        let cake = try #require(try await sandbox.run(["show", "Chocolate Cake", "--json"] + other).json() as? [String: Any])
        #expect((cake["ingredients"] as? [[String: Any]])?[7]["name"] as? String == "Eggs")
        #expect(cake["type"] as? String == "Dessert")
    }

    @Test("an invalid file is refused with one line and nothing is written")
    func invalidFile() async throws {
        let sandbox = try Sandbox()
        let store = ["--store", sandbox.path("s.sqlite"), "--no-samples"]
        let bad = try sandbox.write("bad.json", Data("{\"name\": \"x\", \"recipes\": [{\"name\": 3}".utf8))
        let result = try await sandbox.run(["import", bad] + store)
        #expect(result.status != 0 && result.stderr.hasPrefix("recipes: "), "\(result)")
        #expect(result.stderr.trimmingCharacters(in: .newlines).split(separator: "\n").count == 1)
        let missing = try await sandbox.run(["import", sandbox.path("nope.json")] + store)
        #expect(missing.status != 0)
        #expect(try await sandbox.run(["list", "--json"] + store).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }
}
