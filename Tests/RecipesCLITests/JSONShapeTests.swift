import Foundation
import Testing
import TestSupport

/// Every `--json` shape the RecipesKit article "The recipes Command Line"
/// (CommandLineReference.md, "JSON output") documents, decoded from the real program: each
/// documented key is present, with `null` for an absent value, never left out.
@Suite("recipes: --json shapes", .serialized)
struct JSONShapeTests {
    private static func object(_ result: RunResult) throws -> [String: Any] {
        try #require(try result.json() as? [String: Any], "\(result)")
    }

    @Test("list, show, types, import, sync and status print every documented key")
    func everyShape() async throws {
        let sandbox = try Sandbox()
        let store = sandbox.path("book.sqlite")
        let set = try sandbox.write("set.json", Data("""
            {"name": "shapes", "recipes": [{"name": "Plain Toast", "ingredients": [{"name": "bread"}]}]}
            """.utf8))
        let imported = try Self.object(try await sandbox.run(["import", set, "--json", "--store", store]))
        #expect(Set(imported.keys) == ["sets", "changes", "created", "updated", "unchanged", "skipped"])
        let change = try #require((imported["changes"] as? [[String: Any]])?.first)
        #expect(Set(change.keys) == ["action", "entity", "id", "name", "keys"])

        let list = try #require(try await sandbox.run(["list", "--json", "--store", store]).json() as? [[String: Any]])
        let line = try #require(list.first)
        #expect(Set(line.keys) == ["id", "name", "type", "prepTime", "overview", "ingredientCount", "hasImage"])
        #expect(line["type"] is NSNull && line["overview"] is NSNull)

        let shown = try Self.object(try await sandbox.run(["show", "plain toast", "--json", "--store", store]))
        #expect(Set(shown.keys) == ["id", "name", "type", "overview", "prepTime", "instructions", "ingredients", "image", "thumbnail",
                                   "notes", "notesEncrypted"])
        #expect(shown["image"] is NSNull && shown["instructions"] is NSNull)
        let ingredient = try #require((shown["ingredients"] as? [[String: Any]])?.first)
        #expect(Set(ingredient.keys) == ["id", "amount", "name", "displayOrder"])
        #expect(ingredient["amount"] is NSNull)

        #expect(try await sandbox.run(["add", "--name", "Typed", "--type", "Snack", "--store", store]).status == 0)
        let types = try #require(try await sandbox.run(["types", "--json", "--store", store]).json() as? [[String: Any]])
        #expect(types.map { Set($0.keys) } == [["name", "recipeCount"]])

        let sync = try Self.object(try await sandbox.run(["sync", "--json", "--store", store, "--remote", sandbox.path("remote.sqlite")]))
        #expect(Set(sync.keys) == ["result", "direction", "remote", "startedAt", "finishedAt", "pulled", "pushed",
                                   "conflictsResolved", "refused", "refusedDocuments", "error", "errorKind", "retryable", "steps"])
        #expect(sync["error"] is NSNull && sync["errorKind"] is NSNull && sync["retryable"] is NSNull)
        #expect((sync["startedAt"] as? String).flatMap(ISO8601DateFormatter().date(from:)) != nil)
        let step = try #require((sync["steps"] as? [[String: Any]])?.first)
        #expect(Set(step.keys) == ["name", "state", "error", "errorKind", "retryable"])

        let status = try Self.object(try await sandbox.run(["status", "--json", "--store", store]))
        #expect(Set(status.keys) == ["store", "storeSource", "remote", "remoteSource", "counts", "documents", "pendingChanges",
                                     "conflicts", "seeding", "refused", "lastSync"])
        #expect(status["remote"] is NSNull && status["remoteSource"] is NSNull)
        let counts = try #require(status["counts"] as? [String: Any])
        #expect(Set(counts.keys) == ["recipes", "ingredients", "types", "images"])
        #expect(counts["recipes"] as? Int == 2)
        let lastSync = try #require(status["lastSync"] as? [String: Any])
        #expect(Set(lastSync.keys) == Set(sync.keys))
    }
}
