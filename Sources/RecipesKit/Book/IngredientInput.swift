import Foundation
/// One ingredient line as a user types it: `AMOUNT|NAME` ("2 cups|flour"); the amount may
/// be empty ("|salt").
public struct IngredientInput: Sendable, Equatable, Codable {
    /// How much; `nil` when empty.
    public var amount: String?
    /// What (never empty).
    public var name: String

    /// Makes a line from its parts.
    public init(amount: String?, name: String) {
        self.amount = amount
        self.name = name
    }

    /// Parses `AMOUNT|NAME`; surrounding spaces are dropped.
    /// - Throws: ``RecipesError/malformedIngredient(_:reason:)`` without a `|`, with more than
    ///   one, or with an empty name.
    public init(parsing text: String) throws(RecipesError) {
        let parts = text.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw .malformedIngredient(text, reason: parts.count < 2 ? "no \"|\" between amount and name" : "more than one \"|\"")
        }
        let amount = parts[0].trimmingCharacters(in: .whitespaces)
        let name = parts[1].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw .malformedIngredient(text, reason: "the name is empty") }
        self.amount = amount.isEmpty ? nil : amount
        self.name = name
    }
}
