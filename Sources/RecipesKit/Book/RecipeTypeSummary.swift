/// One line of `recipes types`: a type name and how many recipes use it. Types of the same
/// name (sample sets each bring their own) count as one. JSON: `{"name", "recipeCount"}`.
public struct RecipeTypeSummary: Sendable, Equatable, Codable {
    /// The type's name.
    public var name: String
    /// Recipes of that type.
    public var recipeCount: Int

    /// Makes a summary.
    public init(name: String, recipeCount: Int) {
        self.name = name
        self.recipeCount = recipeCount
    }
}
