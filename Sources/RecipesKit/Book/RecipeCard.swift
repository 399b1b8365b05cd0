/// A recipe as a grid of cards shows it (the web app's book): what the card says and
/// whether it has a picture, read without the overview and the ingredient list, which a
/// card does not show.
public struct RecipeCard: Sendable, Equatable {
    /// The document ID.
    public var id: String
    /// The name.
    public var name: String
    /// The type's name.
    public var type: String?
    /// The preparation time.
    public var prepTime: String?
    /// Whether it has a picture (and so a thumbnail, or one can be made).
    public var hasImage: Bool

    /// Makes a card.
    public init(id: String, name: String, type: String?, prepTime: String?, hasImage: Bool) {
        self.id = id
        self.name = name
        self.type = type
        self.prepTime = prepTime
        self.hasImage = hasImage
    }

    /// The card of a recipe's list line.
    public init(_ summary: RecipeSummary) {
        self.init(id: summary.id, name: summary.name, type: summary.type, prepTime: summary.prepTime, hasImage: summary.hasImage)
    }
}
