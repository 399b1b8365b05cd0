public import ObjectGraph

/// The entity types RecipesKit works with (`Recipe`, `Ingredient`, `RecipeType`, `Image`),
/// generated from the bundled model by the `EntityCodegenPlugin`: RecipesKit adds its own
/// error for an object of the wrong entity, and the document ID each object is stored under.
public protocol RecipesEntity: EntityObject {}

extension RecipesEntity {
    /// Views `object` as this entity.
    /// - Throws: ``RecipesError/wrongEntity(expected:got:)`` for an object of another entity.
    public init(_ object: ManagedObject) throws(RecipesError) {
        guard object.entity.name == Self.entityName else { throw .wrongEntity(expected: Self.entityName, got: object.entity.name) }
        self.init(unchecked: object)
    }

    /// The document ID (`DocumentLayout.documentIDPrefix(entityName:)` then a UUID), once
    /// the object has been saved or was inserted with a chosen ID.
    public var documentID: String { objectID.referenceString }
}

extension Recipe: RecipesEntity {}
extension Ingredient: RecipesEntity {}
extension RecipeType: RecipesEntity {}
extension Image: RecipesEntity {}
