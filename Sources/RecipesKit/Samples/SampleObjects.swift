public import Foundation

/// A sample set flattened into the objects an import creates — one record per `Recipe`,
/// `Ingredient`, `RecipeType` and `Image` — each with its deterministic document ID
/// (``SampleIdentity``), fixed timestamp, and relationships (both sides) as document IDs.
///
/// It is the whole plan of a seeding import as plain values: the importer only has to
/// create an object per record with the given ID and attribute values, so every machine
/// writes the same documents. Building it is a pure function of the set.
public struct SampleObjects: Sendable, Equatable {
    /// A `RecipeType` object.
    public struct TypeRecord: Sendable, Equatable {
        /// Document ID.
        public var id: String
        /// The `name` attribute.
        public var name: String
        /// The to-many `recipes` relationship, in set order.
        public var recipeIDs: [String]
    }

    /// A `Recipe` object.
    public struct RecipeRecord: Sendable, Equatable {
        /// Document ID.
        public var id: String
        /// The `name` attribute.
        public var name: String
        /// The `overview` attribute.
        public var overview: String?
        /// The `prepTime` attribute.
        public var prepTime: String?
        /// The `instructions` attribute.
        public var instructions: String?
        /// The `thumbnailImage` attribute (stored as an attachment).
        public var thumbnail: SampleImage?
        /// The fixed creation date (``SampleIdentity/creationDate(recipeIndex:)``).
        public var creationDate: Date
        /// The to-one `type` relationship.
        public var typeID: String?
        /// The to-one `image` relationship.
        public var imageID: String?
        /// The to-many `ingredients` relationship, in display order.
        public var ingredientIDs: [String]
    }

    /// An `Ingredient` object.
    public struct IngredientRecord: Sendable, Equatable {
        /// Document ID.
        public var id: String
        /// The to-one `recipe` relationship.
        public var recipeID: String
        /// The `name` attribute.
        public var name: String
        /// The `amount` attribute.
        public var amount: String?
        /// The `displayOrder` attribute: the position in the recipe's list, from 0.
        public var displayOrder: Int
    }

    /// An `Image` object.
    public struct ImageRecord: Sendable, Equatable {
        /// Document ID.
        public var id: String
        /// The to-one `recipe` relationship.
        public var recipeID: String
        /// The `image` attribute (stored as an attachment).
        public var image: SampleImage
    }

    /// The set the records come from.
    public var setName: String
    /// Every recipe type of the set, in set order (including unused ones).
    public var types: [TypeRecord]
    /// The recipes, in set order.
    public var recipes: [RecipeRecord]
    /// The ingredients, recipe by recipe, in display order.
    public var ingredients: [IngredientRecord]
    /// The full-size images, in recipe order.
    public var images: [ImageRecord]

    /// Flattens `set` into records.
    public init(_ set: SampleSet) {
        self.init(setName: set.name, types: set.types, recipes: set.recipes)
    }

    /// Flattens part of a set into records: `recipes` are the set's recipes from index
    /// `firstIndex` on (a recipe's creation date follows from its index in the set), and
    /// `types` all of its types. An importer reading a large set a batch at a time makes one
    /// per batch; each type's ``TypeRecord/recipeIDs`` then lists the batch's recipes only.
    public init(setName: String, types typeNames: [String], recipes setRecipes: some Collection<SampleRecipe>, firstIndex: Int = 0) {
        self.setName = setName
        var typeIndex: [String: Int] = [:]
        types = typeNames.enumerated().map { index, name in
            typeIndex[name] = index
            return TypeRecord(id: SampleIdentity.recipeTypeID(set: setName, type: name), name: name, recipeIDs: [])
        }
        recipes = []
        ingredients = []
        images = []
        recipes.reserveCapacity(setRecipes.count)
        for (offset, recipe) in setRecipes.enumerated() {
            let recipeID = SampleIdentity.recipeID(set: setName, recipe: recipe.name)
            var typeID: String?
            if let type = recipe.type, let position = typeIndex[type] {
                typeID = types[position].id
                types[position].recipeIDs.append(recipeID)
            }
            var imageID: String?
            if let image = recipe.image {
                let id = SampleIdentity.imageID(set: setName, recipe: recipe.name)
                imageID = id
                images.append(ImageRecord(id: id, recipeID: recipeID, image: image))
            }
            var ingredientIDs: [String] = []
            for (order, ingredient) in recipe.ingredients.enumerated() {
                let id = SampleIdentity.ingredientID(set: setName, recipe: recipe.name, displayOrder: order, name: ingredient.name)
                ingredientIDs.append(id)
                ingredients.append(IngredientRecord(
                    id: id, recipeID: recipeID, name: ingredient.name, amount: ingredient.amount, displayOrder: order))
            }
            recipes.append(RecipeRecord(
                id: recipeID, name: recipe.name, overview: recipe.overview, prepTime: recipe.prepTime,
                instructions: recipe.instructions, thumbnail: recipe.thumbnail,
                creationDate: SampleIdentity.creationDate(recipeIndex: firstIndex + offset),
                typeID: typeID, imageID: imageID, ingredientIDs: ingredientIDs))
        }
    }

    /// Every document ID of the set: types, recipes, images, ingredients.
    public var documentIDs: [String] {
        types.map(\.id) + recipes.map(\.id) + images.map(\.id) + ingredients.map(\.id)
    }
}
