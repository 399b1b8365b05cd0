import DocumentStore
import Foundation
import Testing
import DocumentFormat

/// Runs the steps of the DocumentStore catalog's article "Getting Started with DocumentStore"
/// (`Sources/DocumentStore/Documentation.docc/GettingStarted.md`), so its code keeps
/// compiling and doing what the article says. Change both together.
@Suite("Documentation: DocumentStore getting started")
struct GettingStartedArticleTests {
    @Test func storeIndexesAndQueries() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("docstore-article-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // Step 1: open a store.
        let store = try DocumentStore(url: folder.appendingPathComponent("kitchen.sqlite"))

        // Step 2: write documents.
        let first = try store.create(id: "soup", body: ["kind": "recipe", "name": "Tomato Soup", "minutes": 25])
        let second = try store.update(id: "soup", parent: first.rev,
                                      body: ["kind": "recipe", "name": "Tomato Soup", "minutes": 30])
        try store.create(body: ["kind": "recipe", "name": "Écrasée de pommes", "minutes": 20])
        try store.create(body: ["kind": "recipe", "name": "Sourdough", "minutes": 1440])
        try store.create(body: ["kind": "ingredient", "name": "tomatoes"])
        #expect(second.rev.description.hasPrefix("2-"))
        #expect(try store.get(id: "soup")?.body["minutes"] == 30)

        // Step 3: declare indexes.
        try store.ensureIndex([IndexField("minutes")], name: "recipes-by-minutes", partialFilter: ["kind": "recipe"])
        try store.ensureIndex([IndexField("name", folded: true)], name: "recipes-by-name", partialFilter: ["kind": "recipe"])
        try store.ensureTextIndex(field: "name", name: "recipe-name-text", partialFilter: ["kind": "recipe"])

        // Step 4: query.
        let quick = Query(selector: ["kind": "recipe", "minutes": ["$lte": 30]],
                          sort: [SortField(field: "name", folded: true)])
        #expect(try store.find(quick).map { $0.body["name"] } == ["Écrasée de pommes", "Tomato Soup"])
        #expect(!(try store.explain(quick)).isEmpty)
        let search = Query(selector: ["kind": "recipe", "name": ["$text": "ecrasee"]])
        #expect(try store.find(search).count == 1)
        #expect(try store.count(selector: ["kind": "recipe"]) == 3)

        // Step 5: follow changes, delete, close.
        let batch = try store.changes(since: 0, limit: 100)
        #expect(batch.changes.count == 4)
        let soup = try #require(try store.get(id: "soup"))
        try store.delete(id: "soup", parent: soup.rev)
        #expect(try store.get(id: "soup") == nil)
        #expect(try store.changes(since: batch.lastSequence, limit: 100).changes.map(\.id) == ["soup"])
        try store.close()
    }
}
