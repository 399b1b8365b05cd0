/// A named collection of sample recipes, ready to import.
///
/// Both sources of samples — the JSON sets shipped in `SampleData/` (``SampleSetLoader``)
/// and Core Data stores written by the original app (``CoreDataStoreReader``) — produce this
/// shape, and only after validating all of it, so an importer never meets a half-good set.
public struct SampleSet: Codable, Sendable, Equatable, Hashable {
    /// The set's name ("classics"); part of every sample document ID (``SampleIdentity``).
    public var name: String
    /// Every recipe type of the set, in first-seen order, including types no recipe uses.
    public var types: [String]
    /// The recipes, in the order the source lists them; names are unique.
    public var recipes: [SampleRecipe]

    /// Makes a set. Types used by a recipe but missing from `types` are appended, so
    /// ``types`` always covers every recipe's type.
    public init(name: String, types: [String] = [], recipes: [SampleRecipe]) {
        self.name = name
        var allTypes = types
        for recipe in recipes {
            if let type = recipe.type, !allTypes.contains(type) { allTypes.append(type) }
        }
        self.types = allTypes
        self.recipes = recipes
    }

    /// The number of ingredient lines over all recipes.
    public var ingredientCount: Int { recipes.reduce(0) { $0 + $1.ingredients.count } }

    /// The number of full-size images over all recipes.
    public var imageCount: Int { recipes.count { $0.image != nil } }

    /// The recipe with exactly this name, if any.
    public func recipe(named name: String) -> SampleRecipe? {
        recipes.first { $0.name == name }
    }
}
