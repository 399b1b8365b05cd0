/// One recipe of a sample set, with everything needed to create its `Recipe`, `Ingredient`,
/// `RecipeType` and `Image` objects.
public struct SampleRecipe: Codable, Sendable, Equatable, Hashable {
    /// The recipe's name; unique within its set, and the natural key its IDs derive from.
    public var name: String
    /// The name of its recipe type ("Dessert"), or `nil` for an untyped recipe.
    public var type: String?
    /// A one-line description shown in lists.
    public var overview: String?
    /// How long it takes, as free text ("1 hour").
    public var prepTime: String?
    /// The method, as free text (steps separated by newlines).
    public var instructions: String?
    /// The ingredients in display order.
    public var ingredients: [SampleIngredient]
    /// The full-size picture, if any.
    public var image: SampleImage?
    /// A small picture for lists, if any.
    public var thumbnail: SampleImage?

    /// Makes a sample recipe.
    public init(
        name: String, type: String? = nil, overview: String? = nil, prepTime: String? = nil,
        instructions: String? = nil, ingredients: [SampleIngredient] = [],
        image: SampleImage? = nil, thumbnail: SampleImage? = nil
    ) {
        self.name = name
        self.type = type
        self.overview = overview
        self.prepTime = prepTime
        self.instructions = instructions
        self.ingredients = ingredients
        self.image = image
        self.thumbnail = thumbnail
    }
}
