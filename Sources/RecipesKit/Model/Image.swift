public import Foundation
public import ObjectGraph

/// A recipe's full-size picture: a typed view of an `Image` object (its bytes are stored as
/// an attachment of the document).
public struct Image: Hashable {
    /// The entity name in the model.
    public static let entityName = "Image"

    /// The managed object behind the view.
    public let object: ManagedObject

    /// Views `object` as an image.
    /// - Throws: ``RecipesError/wrongEntity(expected:got:)`` for an object of another entity.
    public init(_ object: ManagedObject) throws(RecipesError) {
        guard object.entity.name == Self.entityName else {
            throw .wrongEntity(expected: Self.entityName, got: object.entity.name)
        }
        self.object = object
    }

    /// Inserts a new image into `context` (with a store-chosen ID, or `id` when given).
    public static func insert(into context: ObjectContext, id: String? = nil) throws -> Image {
        Image(unchecked: try context.insert(entityName, referenceString: id))
    }

    init(unchecked object: ManagedObject) { self.object = object }

    /// The object's identity across contexts.
    public var objectID: ObjectID { object.objectID }
    /// The document ID (``DocumentLayout/documentIDPrefix(entityName:)`` then a UUID).
    public var documentID: String { object.objectID.referenceString }

    /// The encoded picture (PNG or JPEG).
    public var data: Data? { get throws { try object.data("image") } }
    /// Sets ``data``.
    public func setData(_ value: Data?) throws { try object.setValue(value.map(AttributeValue.data) ?? .null, forKey: "image") }

    /// The recipe showing this picture.
    public var recipe: Recipe? { get throws { try object.object(forKey: "recipe").map(Recipe.init(unchecked:)) } }

    /// Deletes the picture (the recipe's `image` is cleared).
    public func delete() throws {
        guard let context = object.managedObjectContext else { throw ObjectGraphError.objectNotFound(objectID) }
        try context.delete(object)
    }
}
