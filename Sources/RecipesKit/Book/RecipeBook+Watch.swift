public import ObjectGraph

/// Watching what a list shows.
extension RecipeBook {
    /// A live fetch (`LiveFetch`) of the recipes that `query`'s list is made from: an
    /// element first, then one whenever a save in this process or a write by another process
    /// or a sync changes one of them. Re-list (``list(_:)``) on each element to redraw.
    ///
    /// It watches every recipe of the query's type (every recipe when there is no type filter,
    /// or when there is a search, since a search also matches type and ingredient names), not
    /// just the page, because a change anywhere can move recipes onto the page. It compares
    /// the names, overviews, prep times, types, pictures and ingredient lists of those
    /// recipes, so renaming a type or an ingredient of an unchanged recipe does not wake it.
    /// - Throws: ``RecipesError`` when the query's type filter cannot be expressed.
    public func watch(_ query: RecipeQuery) throws(RecipesError) -> LiveFetch {
        let predicate: ObjectPredicate?
        do {
            predicate = query.search.flatMap(Self.nonEmpty) == nil ? try Self.predicate(for: RecipeQuery(type: query.type), typeNames: { [:] }) : nil
        } catch {
            throw Self.recipesError(error)
        }
        let request = FetchRequest(entityName: Recipe.entityName, predicate: predicate, sortDescriptors: [Self.byName],
                                   propertiesToFetch: ["name", "overview", "prepTime", "type", "image", "ingredients"])
        return context.observe(request)
    }
}
