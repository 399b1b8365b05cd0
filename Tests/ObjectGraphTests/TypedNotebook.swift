import Foundation
@testable import ObjectGraph

/// A small notebook model and hand-written struct views in the shape the entity generator
/// will emit: non-throwing properties, optionals for optional attributes and to-one
/// relationships, sets for to-many ones, and `propertyKeys` listing every property (a
/// computed property: a `static let` of key paths is not concurrency-safe in Swift 6).
enum TypedNotebook {
    static let model: ObjectModel = {
        let xml = """
        <entity name="Folder">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
        </entity>
        <entity name="Note">
            <attribute name="title" optional="YES" attributeType="String" indexed="YES"/>
            <attribute name="subtitle" optional="YES" attributeType="String"/>
            <attribute name="pages" optional="YES" attributeType="Integer 32" defaultValueString="0"/>
            <attribute name="rating" optional="YES" attributeType="Double" defaultValueString="0"/>
            <attribute name="pinned" optional="YES" attributeType="Boolean" defaultValueString="NO"/>
            <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag"/>
        </entity>
        <entity name="Tag">
            <attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/>
        </entity>
        """
        do { return try ObjectModel.load(xml: TestSupport.modelXML(xml), name: "Notebook", path: "notebook") }
        catch { preconditionFailure("\(error)") }
    }()

    /// Folders, notes and tags:
    /// - "Recipes": "Lentil soup" (3 pages, pinned, tags soup, winter), "Crème brûlée" (5, tag dessert),
    ///   "Pea soup" (2, subtitle "green", tag soup)
    /// - "Travel": "Lisbon" (12, pinned, subtitle "Portugal"), "Kyoto" (8, tag winter)
    /// - no folder: "Loose ends" (0)
    @discardableResult
    static func fill(_ context: ObjectContext) throws -> [String: ManagedObject] {
        var objects: [String: ManagedObject] = [:]
        for name in ["Recipes", "Travel"] {
            let folder = try context.insert("Folder")
            try folder.setValue(.string(name), forKey: "name")
            objects[name] = folder
        }
        for label in ["soup", "winter", "dessert"] {
            let tag = try context.insert("Tag")
            try tag.setValue(.string(label), forKey: "label")
            objects["#" + label] = tag
        }
        let notes: [(String, Int64, Bool, String?, String?, [String])] = [
            ("Lentil soup", 3, true, nil, "Recipes", ["soup", "winter"]),
            ("Crème brûlée", 5, false, nil, "Recipes", ["dessert"]),
            ("Pea soup", 2, false, "green", "Recipes", ["soup"]),
            ("Lisbon", 12, true, "Portugal", "Travel", []),
            ("Kyoto", 8, false, nil, "Travel", ["winter"]),
            ("Loose ends", 0, false, nil, nil, []),
        ]
        for (title, pages, pinned, subtitle, folder, tags) in notes {
            let note = try context.insert("Note")
            try note.setValue(.string(title), forKey: "title")
            try note.setValue(.int(pages), forKey: "pages")
            try note.setValue(.double(Double(pages) / 2), forKey: "rating")
            try note.setValue(.bool(pinned), forKey: "pinned")
            if let subtitle { try note.setValue(.string(subtitle), forKey: "subtitle") }
            if let folder { try note.setObject(objects[folder], forKey: "folder") }
            for tag in tags { if let t = objects["#" + tag] { try note.addObject(t, toKey: "tags") } }
            objects[title] = note
        }
        return objects
    }
}

struct Folder: EntityObject {
    static let entityName = "Folder"
    let object: ManagedObject
    init(unchecked object: ManagedObject) { self.object = object }
    static var propertyKeys: [PartialKeyPath<Folder>: String] { [\.name: "name", \.notes: "notes"] }

    var name: String { (try? object.value(forKey: "name", as: String.self)) ?? "" }
    var notes: Set<Note> { Set(((try? object.objects(forKey: "notes")) ?? []).map(Note.init(unchecked:))) }
}

struct Note: EntityObject {
    static let entityName = "Note"
    let object: ManagedObject
    init(unchecked object: ManagedObject) { self.object = object }
    static var propertyKeys: [PartialKeyPath<Note>: String] { [
        \.title: "title", \.subtitle: "subtitle", \.pages: "pages", \.rating: "rating", \.pinned: "pinned",
        \.folder: "folder", \.tags: "tags",
    ] }

    var title: String { (try? object.value(forKey: "title", as: String.self)) ?? "" }
    var subtitle: String? { try? object.value(forKey: "subtitle", as: String.self) }
    var pages: Int32 { (try? object.value(forKey: "pages", as: Int32.self)) ?? 0 }
    var rating: Double { (try? object.value(forKey: "rating", as: Double.self)) ?? 0 }
    var pinned: Bool { (try? object.value(forKey: "pinned", as: Bool.self)) ?? false }
    var folder: Folder? { ((try? object.object(forKey: "folder")) ?? nil).map(Folder.init(unchecked:)) }
    var tags: Set<Tag> { Set(((try? object.objects(forKey: "tags")) ?? []).map(Tag.init(unchecked:))) }
    /// Not stored: a typed predicate reading it cannot be translated.
    var shout: String { title.uppercased() }
}

struct Tag: EntityObject {
    static let entityName = "Tag"
    let object: ManagedObject
    init(unchecked object: ManagedObject) { self.object = object }
    static var propertyKeys: [PartialKeyPath<Tag>: String] { [\.label: "label", \.notes: "notes"] }

    var label: String { (try? object.value(forKey: "label", as: String.self)) ?? "" }
    var notes: Set<Note> { Set(((try? object.objects(forKey: "notes")) ?? []).map(Note.init(unchecked:))) }
}
