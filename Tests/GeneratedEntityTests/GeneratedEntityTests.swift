import Foundation
import ObjectGraph
import Testing

/// The types `EntityCodegenPlugin` generated from `Shelf.xcdatamodeld` (built with this
/// target), used against an in-memory store.
@Suite("Generated entity types")
struct GeneratedEntityTests {
    /// A context over a fresh in-memory store with the bundled Shelf model.
    static func context() throws -> ObjectContext {
        let url = try #require(Bundle.module.url(forResource: "Shelf", withExtension: "xcdatamodeld"))
        let model = try ModelVersionSet.load(contentsOf: url).current
        return ObjectContext(coordinator: try PersistentStoreCoordinator(model: model, store: InMemoryStore()))
    }

    @Test("every attribute type round-trips through a save and a fresh fetch")
    func attributesRoundTrip() throws {
        let context = try Self.context()
        let book = try Book.insert(into: context)
        let id = UUID()
        let published = Date(timeIntervalSinceReferenceDate: 700_000_000)
        book.title = "Dune"
        book.pages = 412
        book.edition = 3
        book.isbn = 9_780_441_013_593
        book.rating = 4.5
        book.weight = 0.75
        book.price = Decimal(string: "9.99")!
        book.isRead = true
        book.published = published
        book.cover = Data([0x89, 0x50])
        book.extras = Data([1, 2, 3])
        book.uuid = id
        book.link = URL(string: "https://example.org/dune")!
        book.default = "hardcover"
        try context.save()

        let again = try #require(try Book.fetch(in: context, where: ObjectPredicate(format: "title == %@", "Dune")).first)
        #expect(try again.title == "Dune")
        #expect(try again.pages == 412)
        #expect(try again.edition == 3)
        #expect(try again.isbn == 9_780_441_013_593)
        #expect(try again.rating == 4.5)
        #expect(try again.weight == 0.75)
        #expect(try again.price == Decimal(string: "9.99"))
        #expect(try again.isRead)
        #expect(try again.published == published)
        #expect(try again.cover == Data([0x89, 0x50]))
        #expect(try again.extras == Data([1, 2, 3]))
        #expect(try again.uuid == id)
        #expect(try again.link == URL(string: "https://example.org/dune"))
        #expect(try again.default == "hardcover")
    }

    @Test("optional attributes read nil until set and clear with nil; required ones start from the model's default, or read empty until set and fail the save naming the property")
    func optionality() throws {
        let context = try Self.context()
        let book = try Book.insert(into: context)
        #expect(try book.edition == nil)
        #expect(try book.pages == 0)
        #expect(try book.isRead == false)
        book.edition = 2
        book.edition = nil
        #expect(try book.edition == nil)
        #expect(book.title == "")
        let failure = #expect(throws: ObjectGraphError.self) { try context.save() }
        guard case .validation(let failures)? = failure else { Issue.record("not a validation error: \(String(describing: failure))"); return }
        #expect(failures.map(\.key).contains("title"))
        #expect(failures.allSatisfy { $0.objectID.entityName == "Book" })
    }

    @Test("to-one relationships keep their inverses, to-one and to-many")
    func toOne() throws {
        let context = try Self.context()
        let first = try Book.insert(into: context)
        let second = try Book.insert(into: context)
        first.sequel = second
        #expect(try second.prequel == first)
        first.sequel = nil
        #expect(try second.prequel == nil)

        let loan = try Loan.insert(into: context)
        loan.book = first
        #expect(try first.loans == [loan])
        #expect(try loan.book == first)
    }

    @Test("a required to-one relationship without a destination reads nil and fails the save naming it")
    func requiredToOne() throws {
        let context = try Self.context()
        let loan = try Loan.insert(into: context)
        loan.borrower = "Ann"
        #expect(loan.book == nil)
        let failure = #expect(throws: ObjectGraphError.self) { try context.save() }
        guard case .validation(let failures)? = failure else { Issue.record("not a validation error: \(String(describing: failure))"); return }
        #expect(failures.map { "\($0.objectID.entityName).\($0.key)" } == ["Loan.book"])
    }

    @Test("unordered to-many: add and remove keep the many-to-many inverse")
    func unorderedToMany() throws {
        let context = try Self.context()
        let book = try Book.insert(into: context)
        let herbert = try Author.insert(into: context)
        let anderson = try Author.insert(into: context)
        book.addToAuthors(herbert)
        anderson.addToBooks(book)
        #expect(try book.authors == [herbert, anderson])
        #expect(try herbert.books == [book])
        book.removeFromAuthors(herbert)
        #expect(try book.authors == [anderson])
        #expect(try herbert.books.isEmpty)
    }

    @Test("ordered to-many keeps insertion order and sets the to-one inverse")
    func orderedToMany() throws {
        let context = try Self.context()
        let shelf = try Shelf.insert(into: context)
        let books = try (0..<3).map { _ in try Book.insert(into: context) }
        for book in books.reversed() { shelf.addToBooks(book) }
        #expect(try shelf.books == books.reversed())
        #expect(try books[0].shelf == shelf)
        shelf.removeFromBooks(books[1])
        #expect(try shelf.books == [books[2], books[0]])
        #expect(try books[1].shelf == nil)
    }

    @Test("fetch filters with a predicate and sorts; sub-entities come as views of the parent")
    func fetch() throws {
        let context = try Self.context()
        for (title, pages) in [("B", 30), ("A", 20), ("C", 10)] {
            let book = try Book.insert(into: context)
            book.title = title
            book.pages = Int16(pages)
            book.uuid = UUID()
        }
        let atlas = try Atlas.insert(into: context)
        atlas.title = "World"
        atlas.scale = 1_000_000
        atlas.uuid = UUID()
        try context.save()
        let sorted = try Book.fetch(in: context, where: ObjectPredicate(format: "pages >= %d", 20), sortedBy: [FetchSortDescriptor("title")])
        #expect(try sorted.map { try $0.title } == ["A", "B"])
        #expect(try Book.fetch(in: context).count == 4)
        #expect(try Atlas.fetch(in: context).map { try $0.scale } == [1_000_000])
        #expect(try Book(atlas.object).title == "World")
        let page = try Book.fetch(in: context, sortedBy: [FetchSortDescriptor("title")], limit: 2, offset: 1)
        #expect(try page.map { try $0.title } == ["B", "C"])
        #expect(try Book.count(in: context) == 4)
        #expect(try Book.count(in: context, where: ObjectPredicate(format: "pages >= %d", 20)) == 2)
    }

    @Test("a view refuses an object of another entity, naming both")
    func wrongEntity() throws {
        let context = try Self.context()
        let author = try Author.insert(into: context)
        #expect(throws: ObjectGraphError.self) { try Book(author.object) }
        do {
            _ = try Shelf(author.object)
            Issue.record("a Shelf view of an Author was accepted")
        } catch {
            #expect("\(error)".contains("\"Shelf\"") && "\(error)".contains("\"Author\""))
        }
        #expect(Book.entityName == "Book")
        #expect(Atlas.entityName == "Atlas")
    }

    @Test("delete applies the model's cascade rule")
    func delete() throws {
        let context = try Self.context()
        let book = try Book.insert(into: context)
        book.title = "Dune"
        book.uuid = UUID()
        let loan = try Loan.insert(into: context)
        loan.borrower = "Ann"
        book.addToLoans(loan)
        try context.save()
        try book.delete()
        #expect(loan.object.isDeleted)
        try context.save()
        #expect(try Loan.fetch(in: context).isEmpty)
        #expect(try Book.fetch(in: context).isEmpty)
    }

    @Test("the compiled definition is the XML's current version, every character of its text kept, and builds the same model")
    func compiledDefinition() throws {
        let url = try #require(Bundle.module.url(forResource: "Shelf", withExtension: "xcdatamodeld"))
        let versions = try ModelVersionSet.load(contentsOf: url)
        let path = versions.current.sourcePath
        #expect(ShelfModelDefinition.definition == (try ModelDefinition(xml: try Data(contentsOf: URL(fileURLWithPath: path)), path: path)))
        let title = ShelfModelDefinition.definition.entities.first { $0.element.attributes["name"] == "Book" }?
            .attributes.first { $0.attributes["name"] == "title" }
        #expect(title?.userInfo["note"] == "Text the compiled definition must carry unchanged: \"quotes\", a backslash \\ and \\(no interpolation), #\"raw\"#, a tab\tand a line\nbreak, ✓ and é, and a mark on a quote: \"\u{301}.")
        let built = try ObjectModel.build(ShelfModelDefinition.definition, name: ShelfModelDefinition.versionName, path: ShelfModelDefinition.sourcePath)
        #expect(built.name == versions.current.name)
        #expect(built.versionHash == versions.current.versionHash)
        #expect(built.entityVersionHashes == versions.current.entityVersionHashes)
    }
}
