import Foundation
import Testing
@testable import ObjectGraph

/// Typed fetches (``FetchDescriptor``) return what the equivalent string-predicate fetches
/// return, and finish untranslatable predicates in memory only when allowed to.
@Suite("Typed fetches match string fetches")
struct TypedFetchTests {
    static func titles(_ notes: [Note]) -> [String] { notes.map(\.title) }

    static func stringTitles(_ context: ObjectContext, _ format: String, _ arguments: [any PredicateArgument]) throws -> [String] {
        let request = FetchRequest(entityName: "Note", predicate: try ObjectPredicate(format: format, argumentArray: arguments),
                                   sortDescriptors: [FetchSortDescriptor("title")])
        return try context.fetch(request).map { try $0.string("title") ?? "" }
    }

    @Test("typed and string predicates select the same notes, saved or pending")
    func sameResults() throws {
        let stack = Stack.notebook()
        let context = stack.context()
        let objects = try TypedNotebook.fill(context)
        let recipes = try #require(objects["Recipes"]).objectID
        let byTitle = [SortDescriptor(\Note.title)]
        let cre = LocalizedStandardPrefix("cre")
        let cases: [(Predicate<Note>, String, [any PredicateArgument])] = [
            (#Predicate<Note> { $0.pages > 3 }, "pages > 3", []),
            (#Predicate<Note> { $0.folder?.name == "Travel" }, "folder.name == %@", ["Travel"]),
            (#Predicate<Note> { $0.folder?.objectID == recipes && !$0.pinned }, "folder == %@ AND pinned == NO", [recipes]),
            (#Predicate<Note> { $0.folder == nil || $0.pinned }, "folder == nil OR pinned == YES", []),
            (#Predicate<Note> { $0.tags.contains { $0.label == "winter" } }, "ANY tags.label == %@", ["winter"]),
            (#Predicate<Note> { $0.title.localizedStandardContains("CREME") }, "title CONTAINS[cd] %@", ["CREME"]),
            (#Predicate<Note> { $0.title.starts(with: cre) }, "title BEGINSWITH[cd] %@", ["cre"]),
            (#Predicate<Note> { (2...5).contains($0.pages) && $0.subtitle == nil }, "pages BETWEEN {2, 5} AND subtitle == nil", []),
            (#Predicate<Note> { $0.tags.isEmpty }, "tags.@count == 0", []),
        ]
        for saved in [false, true] {
            if saved { try context.save() }
            let reader = saved ? stack.context("reader") : context
            for (predicate, format, arguments) in cases {
                let typed = try reader.fetch(FetchDescriptor(predicate: predicate, sortBy: byTitle))
                let expected = try Self.stringTitles(reader, format, arguments)
                #expect(Self.titles(typed) == expected, "\(format), saved: \(saved)")
                #expect(try reader.fetchCount(FetchDescriptor(predicate: predicate)) == expected.count, "\(format)")
                // The Foundation predicate agrees in memory on the views.
                let all = try reader.fetch(FetchDescriptor<Note>(sortBy: byTitle))
                #expect(Self.titles(try all.filter { try predicate.evaluate($0) }) == expected, "\(format) in memory")
            }
        }
    }

    @Test("sorts, limit and offset are the store's")
    func paging() throws {
        let context = Stack.notebook().context()
        try TypedNotebook.fill(context)
        try context.save()
        let descriptor = FetchDescriptor<Note>(predicate: #Predicate { $0.pages > 0 }, sortBy: [SortDescriptor(\.pages, order: .reverse)],
                                               fetchLimit: 2, fetchOffset: 1)
        #expect(Self.titles(try context.fetch(descriptor)) == ["Kyoto", "Crème brûlée"])
        #expect(try context.fetchCount(descriptor) == 2)
    }

    @Test("an untranslatable predicate throws naming it, and with allowsInMemoryEvaluation is filtered in memory")
    func inMemoryEvaluation() throws {
        let context = Stack.notebook().context()
        try TypedNotebook.fill(context)
        try context.save()
        let predicate = #Predicate<Note> { $0.folder != nil && $0.pages * 2 > 6 }
        var descriptor = FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\Note.title)])
        let error = #expect(throws: TypedQueryError.self) { try context.fetch(descriptor) }
        #expect(error?.description.contains("Arithmetic") == true, "\(String(describing: error))")
        #expect(throws: TypedQueryError.self) { try context.fetchCount(descriptor) }

        descriptor.allowsInMemoryEvaluation = true
        #expect(Self.titles(try context.fetch(descriptor)) == ["Crème brûlée", "Kyoto", "Lisbon"])
        #expect(try context.fetchCount(descriptor) == 3)
        descriptor.fetchOffset = 1
        descriptor.fetchLimit = 1
        #expect(Self.titles(try context.fetch(descriptor)) == ["Kyoto"], "the page is taken after filtering")
        #expect(try context.fetchCount(descriptor) == 1)

        // The translatable conjunct is what the store gets.
        let (request, inMemory) = try descriptor.storeRequest()
        #expect(request.predicate?.description == "folder != nil")
        #expect(request.fetchLimit == nil && request.fetchOffset == 0)
        #expect(inMemory != nil)

        let count = FetchDescriptor(predicate: #Predicate<Note> { $0.title.count > 5 }, allowsInMemoryEvaluation: true)
        #expect(try context.fetch(count).map(\.title).sorted() == ["Crème brûlée", "Lentil soup", "Lisbon", "Loose ends", "Pea soup"])
    }
}
