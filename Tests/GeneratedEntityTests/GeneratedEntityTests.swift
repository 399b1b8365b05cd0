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
        try book.setTitle("Dune")
        try book.setPages(412)
        try book.setEdition(3)
        try book.setIsbn(9_780_441_013_593)
        try book.setRating(4.5)
        try book.setWeight(0.75)
        try book.setPrice(Decimal(string: "9.99")!)
        try book.setIsRead(true)
        try book.setPublished(published)
        try book.setCover(Data([0x89, 0x50]))
        try book.setExtras(Data([1, 2, 3]))
        try book.setUuid(id)
        try book.setLink(URL(string: "https://example.org/dune")!)
        try book.setDefault("hardcover")
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

    @Test("optional attributes read nil until set and clear with nil; required ones start from the model's default")
    func optionality() throws {
        let context = try Self.context()
        let book = try Book.insert(into: context)
        #expect(try book.edition == nil)
        #expect(try book.pages == 0)
        #expect(try book.isRead == false)
        try book.setEdition(2)
        try book.setEdition(nil)
        #expect(try book.edition == nil)
        #expect(throws: ObjectGraphError.self) { try book.title }
    }

    @Test("to-one relationships keep their inverses, to-one and to-many")
    func toOne() throws {
        let context = try Self.context()
        let first = try Book.insert(into: context)
        let second = try Book.insert(into: context)
        try first.setSequel(second)
        #expect(try second.prequel == first)
        try first.setSequel(nil)
        #expect(try second.prequel == nil)

        let loan = try Loan.insert(into: context)
        try loan.setBook(first)
        #expect(try first.loans == [loan])
        #expect(try loan.book == first)
    }

    @Test("a required to-one relationship without a destination throws on read")
    func requiredToOne() throws {
        let context = try Self.context()
        let loan = try Loan.insert(into: context)
        #expect(throws: ObjectGraphError.self) { try loan.book }
    }

    @Test("unordered to-many: add and remove keep the many-to-many inverse")
    func unorderedToMany() throws {
        let context = try Self.context()
        let book = try Book.insert(into: context)
        let herbert = try Author.insert(into: context)
        let anderson = try Author.insert(into: context)
        try book.addToAuthors(herbert)
        try anderson.addToBooks(book)
        #expect(try book.authors == [herbert, anderson])
        #expect(try herbert.books == [book])
        try book.removeFromAuthors(herbert)
        #expect(try book.authors == [anderson])
        #expect(try herbert.books.isEmpty)
    }

    @Test("ordered to-many keeps insertion order and sets the to-one inverse")
    func orderedToMany() throws {
        let context = try Self.context()
        let shelf = try Shelf.insert(into: context)
        let books = try (0..<3).map { _ in try Book.insert(into: context) }
        for book in books.reversed() { try shelf.addToBooks(book) }
        #expect(try shelf.books == books.reversed())
        #expect(try books[0].shelf == shelf)
        try shelf.removeFromBooks(books[1])
        #expect(try shelf.books == [books[2], books[0]])
        #expect(try books[1].shelf == nil)
    }

    @Test("fetch filters with a predicate and sorts; sub-entities come as views of the parent")
    func fetch() throws {
        let context = try Self.context()
        for (title, pages) in [("B", 30), ("A", 20), ("C", 10)] {
            let book = try Book.insert(into: context)
            try book.setTitle(title)
            try book.setPages(Int16(pages))
            try book.setUuid(UUID())
        }
        let atlas = try Atlas.insert(into: context)
        try atlas.setTitle("World")
        try atlas.setScale(1_000_000)
        try atlas.setUuid(UUID())
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
        try book.setTitle("Dune")
        try book.setUuid(UUID())
        let loan = try Loan.insert(into: context)
        try loan.setBorrower("Ann")
        try book.addToLoans(loan)
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
