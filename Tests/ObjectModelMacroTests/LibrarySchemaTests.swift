import Foundation
import ObjectModelMacro
import Testing

/// The Library model declared with the macros (``LibrarySchema``), against the same model's
/// XML: sub-entities and an abstract entity, fetch indexes, bounds, transient and indexed
/// attributes, `userInfo` entries, model names other than the Swift names, to-many counts.
@Suite("Model declared in Swift: what the XML offers beyond the Notebook's")
struct LibrarySchemaTests {
    typealias Item = LibrarySchema.Item
    typealias Book = LibrarySchema.Book
    typealias Periodical = LibrarySchema.Periodical
    typealias Shelf = LibrarySchema.Shelf

    static func xmlModel() throws -> ObjectModel {
        try ObjectModel.load(xml: Data(LibrarySchema.xml.utf8), name: "Library", path: "Library.xcdatamodel/contents")
    }

    @Test("the Swift model hashes like its XML, and states the same entities, properties and fetch indexes")
    func sameAsXML() throws {
        let xml = try Self.xmlModel()
        let swift = try LibrarySchema.model()
        #expect(swift.versionHash == xml.versionHash)
        #expect(swift.entityVersionHashes == xml.entityVersionHashes)
        #expect(swift.entities.map(\.name) == ["Item", "Book", "Magazine", "Shelf"])
        #expect(swift.entities.map(\.name) == xml.entities.map(\.name))
        for entity in xml.entities {
            let mine = try #require(swift.entity(named: entity.name))
            #expect(mine.isAbstract == entity.isAbstract, "\(entity.name)")
            #expect(mine.superentityName == entity.superentityName, "\(entity.name)")
            #expect(mine.subentityNames == entity.subentityNames, "\(entity.name)")
            #expect(mine.fetchIndexes == entity.fetchIndexes, "\(entity.name)")
            #expect(mine.userInfo == entity.userInfo, "\(entity.name)")
            #expect(mine.attributes.map(\.name) == entity.attributes.map(\.name), "\(entity.name)")
            for attribute in entity.attributes {
                let other = try #require(mine.attribute(named: attribute.name))
                let where_ = "\(entity.name).\(attribute.name)"
                #expect(other.type == attribute.type, "\(where_)")
                #expect(other.isOptional == attribute.isOptional, "\(where_)")
                #expect(other.isTransient == attribute.isTransient, "\(where_)")
                #expect(other.isIndexed == attribute.isIndexed, "\(where_)")
                #expect(other.defaultValue == attribute.defaultValue, "\(where_)")
                #expect(other.minValue == attribute.minValue, "\(where_)")
                #expect(other.maxValue == attribute.maxValue, "\(where_)")
                #expect(other.userInfo == attribute.userInfo, "\(where_)")
            }
            #expect(mine.relationships.map(\.name) == entity.relationships.map(\.name), "\(entity.name)")
            for relationship in entity.relationships {
                let other = try #require(mine.relationship(named: relationship.name))
                let where_ = "\(entity.name).\(relationship.name)"
                #expect(other.destinationEntityName == relationship.destinationEntityName, "\(where_)")
                #expect(other.inverseName == relationship.inverseName, "\(where_)")
                #expect(other.inverseEntityName == relationship.inverseEntityName, "\(where_)")
                #expect(other.isToMany == relationship.isToMany && other.isOrdered == relationship.isOrdered, "\(where_)")
                #expect(other.isOptional == relationship.isOptional && other.isTransient == relationship.isTransient, "\(where_)")
                #expect(other.minCount == relationship.minCount && other.maxCount == relationship.maxCount, "\(where_)")
                #expect(other.deleteRule == relationship.deleteRule, "\(where_)")
                #expect(other.userInfo == relationship.userInfo, "\(where_)")
            }
        }
        // What the model names say about the Swift names.
        #expect(Periodical.entityName == "Magazine")
        #expect(Book.propertyKeys[\Book.code] == "isbn")
        #expect(Shelf.propertyKeys[\Shelf.current] == "reading")
    }

    /// A context over a fresh in-memory store with the Library model.
    static func context() throws -> ObjectContext {
        ObjectContext(coordinator: try PersistentStoreCoordinator(model: try LibrarySchema.model(), store: InMemoryStore()))
    }

    @Test("sub-entities: a fetch of the parent includes them, inherited and renamed properties read through their views, the abstract parent is refused")
    func subEntities() throws {
        let context = try Self.context()
        let shelf = try Shelf.insert(into: context)
        shelf.label = "Desk"
        let book = try Book.insert(into: context)
        book.title = "Dune"
        book.code = "978-0441013593"
        let magazine = try Periodical.insert(into: context)
        magazine.issue = 12
        try magazine.object.setValue("Wired", forKey: "title")
        shelf.items = [Item(unchecked: book.object), Item(unchecked: magazine.object)]
        shelf.current = book
        try context.save()

        #expect(try Item.count(in: context) == 2)
        #expect(Set(try Item.fetch(in: context).map(\.title)) == ["Dune", "Wired"])
        #expect(try Item.fetch(in: context).allSatisfy { $0.shelf == shelf })
        let fetched = try #require(try Book.fetch(in: context).first)
        #expect(fetched.title == "Dune" && fetched.code == "978-0441013593" && fetched.weight == 1.5)
        // What Book inherits without declaring it again reads through the parent's view.
        #expect(try Item(fetched.object).rank == 0)
        #expect(try fetched.object.value(forKey: "isbn", as: String.self) == "978-0441013593")
        #expect(try Periodical.fetch(in: context).map(\.issue) == [12])
        #expect(throws: ObjectGraphError.self) { try Item.insert(into: context) }
    }

    @Test("bounds hold at save; a transient attribute is kept in memory, not stored")
    func boundsAndTransient() throws {
        let context = try Self.context()
        let book = try Book.insert(into: context)
        let item = try Item(book.object)
        book.title = ""
        #expect(throws: (any Error).self) { try context.save() }
        book.title = "Emma"
        item.rank = 11
        #expect(throws: (any Error).self) { try context.save() }
        item.rank = 10
        item.scratch = "notes"
        try context.save()
        #expect(item.scratch == "notes")

        let reader = ObjectContext(coordinator: context.coordinator, name: "reader")
        let again = try Item(#require(try Book.fetch(in: reader).first).object)
        #expect(again.title == "Emma" && again.rank == 10)
        #expect(again.scratch == nil)
    }
}
