public import Foundation
public import ObjectGraph

/// One ingredient line of a recipe: a typed view of an `Ingredient` object.
public struct Ingredient: Hashable {
    /// The entity name in the model.
    public static let entityName = "Ingredient"

    /// The managed object behind the view.
    public let object: ManagedObject

    /// Views `object` as an ingredient.
    /// - Throws: ``RecipesError/wrongEntity(expected:got:)`` for an object of another entity.
    public init(_ object: ManagedObject) throws(RecipesError) {
        guard object.entity.name == Self.entityName else {
            throw .wrongEntity(expected: Self.entityName, got: object.entity.name)
        }
        self.object = object
    }

    /// Inserts a new ingredient into `context` (with a store-chosen ID, or `id` when given).
    public static func insert(into context: ObjectContext, id: String? = nil) throws -> Ingredient {
        Ingredient(unchecked: try context.insert(entityName, referenceString: id))
    }

    init(unchecked object: ManagedObject) { self.object = object }

    /// The object's identity across contexts.
    public var objectID: ObjectID { object.objectID }
    /// The document ID (``DocumentLayout/documentIDPrefix(entityName:)`` then a UUID).
    public var documentID: String { object.objectID.referenceString }

    /// What it is ("flour").
    public var name: String? { get throws { try object.string("name") } }
    /// Sets ``name``.
    public func setName(_ value: String?) throws { try object.setValue(value.map(AttributeValue.string) ?? .null, forKey: "name") }

    /// How much, as free text ("2 cups").
    public var amount: String? { get throws { try object.string("amount") } }
    /// Sets ``amount``.
    public func setAmount(_ value: String?) throws { try object.setValue(value.map(AttributeValue.string) ?? .null, forKey: "amount") }

    /// The line's position in its recipe, from 0.
    public var displayOrder: Int { get throws { Int(try object.int("displayOrder") ?? 0) } }
    /// Sets ``displayOrder`` (0…32767, the model's 16-bit range).
    public func setDisplayOrder(_ value: Int) throws { try object.setValue(.int(Int64(value)), forKey: "displayOrder") }

    /// The recipe the line belongs to.
    public var recipe: Recipe? { get throws { try object.object(forKey: "recipe").map(Recipe.init(unchecked:)) } }

    /// Deletes the line (the recipe's `ingredients` follow).
    public func delete() throws {
        guard let context = object.managedObjectContext else { throw ObjectGraphError.objectNotFound(objectID) }
        try context.delete(object)
    }
}
