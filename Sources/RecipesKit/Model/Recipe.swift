import ObjectGraph

/// A recipe's ingredient lines in display order, kept numbered from 0.
extension Recipe {
    /// The ingredients in display order (`displayOrder`, then name, then ID, so the order
    /// is the same on every machine even when two lines share a position). Lines not in the
    /// store yet (a sync can bring a recipe before its ingredients) are left out.
    public var ingredients: [Ingredient] {
        ingredientSet.filter { !$0.object.isMissingFromStore }
            .map { (key: ($0.displayOrder ?? 0, $0.name ?? "", $0.objectID), line: $0) }
            .sorted { $0.key < $1.key }
            .map(\.line)
    }

    /// Appends an ingredient line after the last one and returns it.
    @discardableResult
    public func addIngredient(name: String, amount: String?, id: String? = nil) throws -> Ingredient {
        guard let context = object.managedObjectContext else { throw ObjectGraphError.objectNotFound(objectID) }
        let next = ingredients.compactMap(\.displayOrder).max().map { $0 + 1 } ?? 0
        let line = try Ingredient.insert(into: context, id: id)
        line.name = name
        line.amount = amount
        line.displayOrder = next
        addToIngredientSet(line)
        return line
    }

    /// Deletes one ingredient line and renumbers the others from 0, keeping their order.
    public func removeIngredient(_ line: Ingredient) throws {
        try line.delete()
        for (position, remaining) in ingredients.filter({ $0.objectID != line.objectID }).enumerated()
        where remaining.displayOrder != Int16(position) {
            remaining.displayOrder = Int16(position)
        }
    }
}
