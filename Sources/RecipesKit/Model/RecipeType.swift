public import Foundation
public import ObjectGraph

/// A kind of dish ("Dessert"): a typed view of a `RecipeType` object.
public struct RecipeType: Hashable {
    /// The entity name in the model.
    public static let entityName = "RecipeType"

    /// The managed object behind the view.
    public let object: ManagedObject

    /// Views `object` as a recipe type.
    /// - Throws: ``RecipesError/wrongEntity(expected:got:)`` for an object of another entity.
    public init(_ object: ManagedObject) throws(RecipesError) {
        guard object.entity.name == Self.entityName else {
            throw .wrongEntity(expected: Self.entityName, got: object.entity.name)
        }
        self.object = object
    }

    /// Inserts a new type into `context` (with a store-chosen ID, or `id` when given).
    public static func insert(into context: ObjectContext, id: String? = nil) throws -> RecipeType {
        RecipeType(unchecked: try context.insert(entityName, referenceString: id))
    }

    init(unchecked object: ManagedObject) { self.object = object }

    /// The object's identity across contexts.
    public var objectID: ObjectID { object.objectID }
    /// The document ID (``DocumentLayout/documentIDPrefix(entityName:)`` then a UUID).
    public var documentID: String { object.objectID.referenceString }

    /// The type's name.
    public var name: String? { get throws { try object.string("name") } }
    /// Sets ``name``.
    public func setName(_ value: String?) throws { try object.setValue(value.map(AttributeValue.string) ?? .null, forKey: "name") }

    /// The recipes of this type.
    public var recipes: [Recipe] { get throws { try object.objects(forKey: "recipes").map(Recipe.init(unchecked:)) } }
}
