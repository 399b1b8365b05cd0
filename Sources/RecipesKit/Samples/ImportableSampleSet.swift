/// A sample set as ``SampleImporter`` takes it: its name and types, and its recipes a batch
/// at a time, so an import holds one batch of a large set rather than all of it.
///
/// A ``SampleSet`` is one, already in memory; a ``SampleSetFile`` is a JSON set file that was
/// checked whole and is read again, a batch at a time, while it is imported.
public protocol ImportableSampleSet: Sendable {
    /// The set's name; part of every sample document ID (``SampleIdentity``).
    var name: String { get }
    /// Every recipe type of the set, in first-seen order, including types no recipe uses.
    var types: [String] { get }
    /// The number of recipes.
    var recipeCount: Int { get }
    /// The number of objects an import of the set covers: types, recipes, images and
    /// ingredients (for progress).
    var objectCount: Int { get }
    /// Refuses the set, before anything is written, when a recipe is larger than
    /// ``RecipeLimits`` allow; the error names the set and the recipe.
    func checkLimits() throws(RecipesError)
    /// Hands the recipes to `body` in set order, `size` at a time, each batch with the index
    /// of its first recipe in the set; a set without recipes gives one empty batch, so its
    /// types are still imported. Rethrows what `body` throws; reading the recipes again can
    /// fail too (a ``SampleSetError`` or ``RecipesError`` when a file changed since it was
    /// checked).
    func forEachBatch(of size: Int, _ body: (_ firstIndex: Int, _ recipes: [SampleRecipe]) throws -> Void) throws
}
