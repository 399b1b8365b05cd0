import Foundation
import ObjectModelMacro
import Testing

/// The Notebook model declared with `@ObjectModel` and `@Entity`, used against an in-memory
/// store and compared with the same model's XML.
@Suite("Model declared in Swift")
struct ObjectModelMacroTests {
    typealias Folder = NotebookSchema.Folder
    typealias Note = NotebookSchema.Note

    /// A context over a fresh in-memory store with the Swift-declared model.
    static func context() throws -> ObjectContext {
        ObjectContext(coordinator: try PersistentStoreCoordinator(model: try NotebookSchema.model(), store: InMemoryStore()))
    }

    @Test("the Swift model hashes like the Notebook XML: model and every entity")
    func sameVersionHashAsXML() throws {
        let url = try #require(Bundle.module.url(forResource: "Notebook", withExtension: "xcdatamodeld"))
        let xml = try ModelVersionSet.load(contentsOf: url).current
        let swift = try NotebookSchema.model()
        #expect(swift.versionHash == xml.versionHash)
        #expect(swift.entityVersionHashes == xml.entityVersionHashes)
        #expect(swift.entities.map(\.name) == ["Folder", "Note"])
    }

    @Test("the definition states what the XML states: types, optionality, defaults, delete rules, inverses, ordering")
    func definitionMatchesXML() throws {
        let url = try #require(Bundle.module.url(forResource: "Notebook", withExtension: "xcdatamodeld"))
        let xml = try ModelVersionSet.load(contentsOf: url).current
        let swift = try NotebookSchema.model()
        for entity in xml.entities {
            let other = try #require(swift.entity(named: entity.name))
            #expect(other.attributes.map(\.name) == entity.attributes.map(\.name))
            for attribute in entity.attributes {
                let mine = try #require(other.attributes.first { $0.name == attribute.name })
                #expect(mine.type == attribute.type)
                #expect(mine.isOptional == attribute.isOptional)
                #expect(mine.defaultValue == attribute.defaultValue)
            }
            for relationship in entity.relationships {
                let mine = try #require(other.relationships.first { $0.name == relationship.name })
                #expect(mine.destinationEntityName == relationship.destinationEntityName)
                #expect(mine.inverseName == relationship.inverseName)
                #expect(mine.isToMany == relationship.isToMany)
                #expect(mine.isOrdered == relationship.isOrdered)
                #expect(mine.isOptional == relationship.isOptional)
                #expect(mine.deleteRule == relationship.deleteRule)
            }
            #expect(other.userInfo["description"] == entity.userInfo["description"])
        }
        #expect(NotebookSchema.versionName == "Notebook")
        #expect(NotebookSchema.sourcePath.hasPrefix("ObjectModelMacroTests/NotebookSchema.swift:"))
    }

    @Test("insert, relate, save and fetch through the macro-made views; the inverse follows")
    func insertSaveFetch() throws {
        let context = try Self.context()
        let folder = try Folder.insert(into: context)
        folder.name = "Ideas"
        let created = Date(timeIntervalSinceReferenceDate: 700_000_000)
        folder.created = created
        let first = try Note.insert(into: context)
        first.text = "first"
        let second = try Note.insert(into: context)
        second.text = "second"
        second.pinned = true
        folder.addToNotes(first)
        second.folder = folder
        #expect(first.pinned == false)
        #expect(first.folder == folder)
        try context.save()

        let again = try #require(try Folder.fetch(in: context, where: ObjectPredicate(format: "name == %@", "Ideas")).first)
        #expect(again.name == "Ideas")
        #expect(again.created == created)
        #expect(again.notes.map(\.text) == ["first", "second"])
        #expect(try Note.count(in: context) == 2)
        let snapshot = second.snapshot
        #expect(snapshot.text == "second" && snapshot.pinned && snapshot.folder == folder.objectID)

        folder.removeFromNotes(first)
        #expect(first.folder == nil)
        #expect(again.notes.map(\.text) == ["second"])
    }

    @Test("deleting a folder cascades to its notes")
    func cascade() throws {
        let context = try Self.context()
        let folder = try Folder.insert(into: context)
        folder.name = "Trash"
        let note = try Note.insert(into: context)
        note.text = "gone"
        note.folder = folder
        try context.save()
        try folder.delete()
        try context.save()
        #expect(try Note.count(in: context) == 0)
        #expect(Folder.propertyKeys[\Folder.notes] == "notes")
    }
}
