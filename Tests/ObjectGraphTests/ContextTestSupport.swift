import Foundation
@testable import ObjectGraph

/// A coordinator over a fresh in-memory store with the recipes model.
struct Stack {
    let store: InMemoryStore
    let coordinator: PersistentStoreCoordinator

    init(model: ObjectModel = TestSupport.recipesModel, predicateSupport: InMemoryStore.PredicateSupport = .all) throws {
        store = InMemoryStore(predicateSupport: predicateSupport)
        coordinator = try PersistentStoreCoordinator(model: model, store: store)
    }

    func context(_ name: String = "ctx") -> ObjectContext { ObjectContext(coordinator: coordinator, name: name) }
}

extension ObjectContext {
    /// Inserts a recipe with a name and optional type and ingredients.
    @discardableResult
    func recipe(_ name: String, type: ManagedObject? = nil, ingredients: [String] = [], prepTime: String? = nil) throws -> ManagedObject {
        let r = try insert("Recipe")
        try r.setValue(.string(name), forKey: "name")
        if let prepTime { try r.setValue(.string(prepTime), forKey: "prepTime") }
        if let type { try r.setObject(type, forKey: "type") }
        for (i, n) in ingredients.enumerated() {
            let ing = try insert("Ingredient")
            try ing.setValue(.string(n), forKey: "name")
            try ing.setValue(.int(Int64(i)), forKey: "displayOrder")
            try ing.setObject(r, forKey: "recipe")
        }
        return r
    }

    func recipeType(_ name: String) throws -> ManagedObject {
        let t = try insert("RecipeType")
        try t.setValue(.string(name), forKey: "name")
        return t
    }

    func names(_ request: FetchRequest) throws -> [String] {
        try fetch(request).map { try $0.string("name") ?? "nil" }
    }
}

/// A model exercising deny, no-action, counts, bounds and inheritance.
enum TestModels {
    static let rules: ObjectModel = {
        let xml = """
        <entity name="Owner">
            <attribute name="name" optional="YES" attributeType="String" maxValueString="5"/>
            <relationship name="pets" optional="YES" toMany="YES" maxCount="2" deletionRule="Deny" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="No Action" destinationEntity="Note" inverseName="owner" inverseEntity="Note"/>
            <relationship name="tags" toMany="YES" minCount="1" deletionRule="Nullify" destinationEntity="Tag" inverseName="owners" inverseEntity="Tag"/>
        </entity>
        <entity name="Pet">
            <attribute name="age" optional="YES" attributeType="Integer 32" minValueString="0" maxValueString="30"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="pets" inverseEntity="Owner"/>
        </entity>
        <entity name="Note">
            <attribute name="text" optional="YES" attributeType="String"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="notes" inverseEntity="Owner"/>
        </entity>
        <entity name="Tag">
            <attribute name="label" attributeType="String"/>
            <relationship name="owners" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Owner" inverseName="tags" inverseEntity="Owner"/>
        </entity>
        <entity name="Media" isAbstract="YES">
            <attribute name="title" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Book" parentEntity="Media">
            <attribute name="pages" optional="YES" attributeType="Integer 32"/>
        </entity>
        <entity name="Film" parentEntity="Media">
            <attribute name="minutes" optional="YES" attributeType="Integer 32"/>
        </entity>
        """
        do { return try ObjectModel.load(xml: TestSupport.modelXML(xml), name: "Rules", path: "rules") }
        catch { preconditionFailure("\(error)") }
    }()
}
