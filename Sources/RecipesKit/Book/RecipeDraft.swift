public import Foundation

/// Everything `recipes add` creates a recipe from, checked before anything is written.
public struct RecipeDraft: Sendable, Equatable {
    /// The name (required, unique among recipes).
    public var name: String
    /// The type's name; an existing type of that name (ignoring case) is reused, otherwise
    /// one is created.
    public var type: String?
    /// The one-line description.
    public var overview: String?
    /// The preparation time, as free text.
    public var prepTime: String?
    /// The method.
    public var instructions: String?
    /// The ingredient lines, in display order.
    public var ingredients: [IngredientInput]
    /// The full-size picture (PNG or JPEG bytes, already checked).
    public var image: Data?
    /// Private notes, stored encrypted (needs the store's password).
    public var notes: String?

    /// Makes a draft.
    public init(name: String, type: String? = nil, overview: String? = nil, prepTime: String? = nil,
                instructions: String? = nil, ingredients: [IngredientInput] = [], image: Data? = nil, notes: String? = nil) {
        self.notes = notes
        self.name = name
        self.type = type
        self.overview = overview
        self.prepTime = prepTime
        self.instructions = instructions
        self.ingredients = ingredients
        self.image = image
    }
}
