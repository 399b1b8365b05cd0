@_exported public import DocumentIncrementalStore

/// The recipes model's containers: ``RecipesStore`` opens one over the store file; tests and
/// dry runs use ``inMemoryRecipes()``.
extension ObjectContainer {
    /// A container for the bundled recipes model over a fresh store that lives in memory only.
    /// - Throws: ``RecipesError/modelUnavailable(path:reason:)`` when the bundled model is
    ///   missing, ``RecipesError/store(_:cause:)`` when the store cannot be made.
    public static func inMemoryRecipes() throws(RecipesError) -> ObjectContainer {
        let model = try RecipesModel.current()
        do {
            return try inMemory(model: model)
        } catch {
            throw .store("cannot make an in-memory store: \(error)", cause: error)
        }
    }

    /// A ``RecipeBook`` over a new context of its own, for the place that asks for it (a
    /// command, a request, a test): it sees what is saved, and its unsaved changes are its own.
    public func newBook(name: String = "book") -> RecipeBook { RecipeBook(context: newContext(name: name)) }
}
