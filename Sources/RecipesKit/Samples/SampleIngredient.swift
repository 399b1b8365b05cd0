/// One line of a sample recipe's ingredient list.
///
/// Ingredients have no order field of their own: their position in
/// ``SampleRecipe/ingredients`` is their display order, which keeps the order unambiguous
/// even when a source (such as a Core Data store) has ties.
public struct SampleIngredient: Codable, Sendable, Equatable, Hashable {
    /// How much, as the cook would write it ("2 tablespoons", "Pinch"); `nil` when not given.
    public var amount: String?
    /// What ("Caster sugar"); never empty.
    public var name: String

    /// Makes an ingredient line.
    public init(amount: String?, name: String) {
        self.amount = amount
        self.name = name
    }
}
