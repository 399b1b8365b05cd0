@testable import RecipesKit

/// Reading and editing a recipe by name in one book (a recipe belongs to the context of the
/// book that found it, so the look-up and the use go through the same book).
extension RecipeBook {
    /// The details of the recipe `name` names.
    func details(named name: String) throws -> RecipeDetails {
        try details(of: recipe(named: name))
    }

    /// Edits the recipe `name` names.
    @discardableResult
    func edit(named name: String, _ edit: RecipeEdit) throws -> RecipeDetails {
        try self.edit(recipe(named: name), edit)
    }
}
