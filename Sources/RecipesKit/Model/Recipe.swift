public import Foundation
public import ObjectGraph

/// A recipe: a typed view of one `Recipe` object of the object graph.
///
/// It holds the managed object, so it lives in that object's context like the object
/// does; pass ``objectID`` between contexts. Reads fire the object's fault and may throw
/// when the store cannot be read; writes are checked against the model and reach the store
/// when the context saves. Setting a relationship keeps its inverse up to date.
public struct Recipe: Hashable {
    /// The entity name in the model.
    public static let entityName = "Recipe"

    /// The managed object behind the view.
    public let object: ManagedObject

    /// Views `object` as a recipe.
    /// - Throws: ``RecipesError/wrongEntity(expected:got:)`` for an object of another entity.
    public init(_ object: ManagedObject) throws(RecipesError) {
        guard object.entity.name == Self.entityName else {
            throw .wrongEntity(expected: Self.entityName, got: object.entity.name)
        }
        self.object = object
    }

    /// Inserts a new, empty recipe into `context` (with a store-chosen ID, or `id` when given).
    public static func insert(into context: ObjectContext, id: String? = nil) throws -> Recipe {
        Recipe(unchecked: try context.insert(entityName, referenceString: id))
    }

    init(unchecked object: ManagedObject) { self.object = object }

    /// The object's identity across contexts.
    public var objectID: ObjectID { object.objectID }
    /// The document ID (``DocumentLayout/documentIDPrefix(entityName:)`` then a UUID), once the recipe has been saved or was inserted
    /// with a chosen ID.
    public var documentID: String { object.objectID.referenceString }

    /// The recipe's name (required, at least one character).
    public var name: String { get throws { try object.string("name") ?? "" } }
    /// Sets ``name``.
    public func setName(_ value: String) throws { try object.setValue(.string(value), forKey: "name") }

    /// A one-line description shown in lists.
    public var overview: String? { get throws { try object.string("overview") } }
    /// Sets ``overview`` (`nil` clears it).
    public func setOverview(_ value: String?) throws { try object.setValue(value.map(AttributeValue.string) ?? .null, forKey: "overview") }

    /// How long it takes, as free text ("1 hour").
    public var prepTime: String? { get throws { try object.string("prepTime") } }
    /// Sets ``prepTime`` (`nil` clears it).
    public func setPrepTime(_ value: String?) throws { try object.setValue(value.map(AttributeValue.string) ?? .null, forKey: "prepTime") }

    /// The method, steps separated by newlines.
    public var instructions: String? { get throws { try object.string("instructions") } }
    /// Sets ``instructions`` (`nil` clears them).
    public func setInstructions(_ value: String?) throws { try object.setValue(value.map(AttributeValue.string) ?? .null, forKey: "instructions") }

    /// Private notes, encrypted in the store (model version `Recipes 3`, userInfo
    /// `encrypted = YES`). Reading them needs the store's password; without it, or for a value
    /// that cannot be decrypted, the read throws the store's `EncryptedAttributeError`.
    public var notes: String? { get throws { try object.string("notes") } }
    /// Sets ``notes`` (`nil` clears them); saving needs the store's password.
    public func setNotes(_ value: String?) throws { try object.setValue(value.map(AttributeValue.string) ?? .null, forKey: "notes") }

    /// The small picture shown in lists (JPEG or PNG bytes).
    public var thumbnailImage: Data? { get throws { try object.data("thumbnailImage") } }
    /// Sets ``thumbnailImage`` (`nil` clears it).
    public func setThumbnailImage(_ value: Data?) throws { try object.setValue(value.map(AttributeValue.data) ?? .null, forKey: "thumbnailImage") }

    /// The recipe's type, if any.
    public var type: RecipeType? { get throws { try object.object(forKey: "type").map(RecipeType.init(unchecked:)) } }
    /// Sets ``type`` (`nil` leaves the recipe untyped); the type's `recipes` follow.
    public func setType(_ value: RecipeType?) throws { try object.setObject(value?.object, forKey: "type") }

    /// The full-size picture, if any.
    public var image: Image? { get throws { try object.object(forKey: "image").map(Image.init(unchecked:)) } }
    /// Sets ``image``; the old picture is not deleted (use ``Image/delete()`` for that).
    public func setImage(_ value: Image?) throws { try object.setObject(value?.object, forKey: "image") }

    /// The ingredients in display order (`displayOrder`, then name, then ID, so the order
    /// is the same on every machine even when two lines share a position).
    public var ingredients: [Ingredient] {
        get throws {
            let lines = try object.objects(forKey: "ingredients").map(Ingredient.init(unchecked:))
            let keyed = try lines.map { (order: try $0.displayOrder, name: try $0.name ?? "", id: $0.objectID, line: $0) }
            return keyed.sorted { ($0.order, $0.name, $0.id) < ($1.order, $1.name, $1.id) }.map(\.line)
        }
    }

    /// Appends an ingredient line after the last one and returns it.
    @discardableResult
    public func addIngredient(name: String, amount: String?, id: String? = nil) throws -> Ingredient {
        guard let context = object.managedObjectContext else { throw ObjectGraphError.objectNotFound(objectID) }
        let next = try ingredients.map { try $0.displayOrder }.max().map { $0 + 1 } ?? 0
        let line = try Ingredient.insert(into: context, id: id)
        try line.setName(name)
        try line.setAmount(amount)
        try line.setDisplayOrder(next)
        try object.addObject(line.object, toKey: "ingredients")
        return line
    }

    /// Deletes one ingredient line and renumbers the others from 0, keeping their order.
    public func removeIngredient(_ line: Ingredient) throws {
        try line.delete()
        for (position, remaining) in try ingredients.filter({ $0.objectID != line.objectID }).enumerated()
        where try remaining.displayOrder != position {
            try remaining.setDisplayOrder(position)
        }
    }

    /// Deletes the recipe with its ingredients and image (the model's cascade rules); its
    /// type stays.
    public func delete() throws {
        guard let context = object.managedObjectContext else { throw ObjectGraphError.objectNotFound(objectID) }
        try context.delete(object)
    }
}
