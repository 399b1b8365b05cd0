public import Foundation

/// The changes `recipes edit` makes to one recipe; `nil` fields stay as they are. Checked
/// before anything is written.
public struct RecipeEdit: Sendable, Equatable {
    /// A new name.
    public var name: String?
    /// A new type by name; the empty string makes the recipe untyped.
    public var type: String?
    /// A new overview; the empty string clears it.
    public var overview: String?
    /// A new preparation time; the empty string clears it.
    public var prepTime: String?
    /// New instructions; the empty string clears them.
    public var instructions: String?
    /// Ingredient lines to remove, by name (ignoring case), applied first.
    public var removeIngredients: [String]
    /// Ingredient lines to add at the end; a line named like an existing one (ignoring
    /// case) changes that line's amount instead.
    public var ingredients: [IngredientInput]
    /// The recipe's whole ingredient list, in order, replacing the one it has (the web
    /// form's edit, where lines are added, removed and reordered at once); `nil` keeps the
    /// list and applies ``removeIngredients`` and ``ingredients``. A line named like a
    /// present one (ignoring case and accents) keeps that line, with the new amount and place.
    public var ingredientList: [IngredientInput]?
    /// A new full-size picture (PNG or JPEG bytes); the old thumbnail, which showed the old
    /// picture, is dropped.
    public var image: Data?
    /// Removes the picture and the thumbnail.
    public var clearImage: Bool
    /// New private notes (stored encrypted, needs the store's password); the empty string
    /// clears them.
    public var notes: String?

    /// Makes an edit.
    public init(name: String? = nil, type: String? = nil, overview: String? = nil, prepTime: String? = nil,
                instructions: String? = nil, removeIngredients: [String] = [], ingredients: [IngredientInput] = [],
                image: Data? = nil, clearImage: Bool = false, notes: String? = nil,
                ingredientList: [IngredientInput]? = nil) {
        self.notes = notes
        self.ingredientList = ingredientList
        self.name = name
        self.type = type
        self.overview = overview
        self.prepTime = prepTime
        self.instructions = instructions
        self.removeIngredients = removeIngredients
        self.ingredients = ingredients
        self.image = image
        self.clearImage = clearImage
    }

    /// Whether the edit changes nothing.
    public var isEmpty: Bool {
        name == nil && type == nil && overview == nil && prepTime == nil && instructions == nil
            && removeIngredients.isEmpty && ingredients.isEmpty && ingredientList == nil && image == nil && !clearImage
            && notes == nil
    }
}
