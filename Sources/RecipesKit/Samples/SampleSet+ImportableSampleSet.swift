/// A set in memory is imported by slicing its recipes.
extension SampleSet: ImportableSampleSet {
    /// The number of recipes.
    public var recipeCount: Int { recipes.count }

    /// Types, recipes, images and ingredients.
    public var objectCount: Int { types.count + recipes.count + imageCount + ingredientCount }

    /// Checks every recipe against ``RecipeLimits``.
    public func checkLimits() throws(RecipesError) {
        for recipe in recipes { try SampleImporter.checkLimits(recipe, inSet: name) }
    }

    /// Hands out consecutive slices of ``recipes``.
    public func forEachBatch(of size: Int, _ body: (_ firstIndex: Int, _ recipes: [SampleRecipe]) throws -> Void) throws {
        guard !recipes.isEmpty else { return try body(0, []) }
        let size = max(1, size)
        for start in stride(from: 0, to: recipes.count, by: size) {
            try body(start, Array(recipes[start..<min(recipes.count, start + size)]))
        }
    }
}
