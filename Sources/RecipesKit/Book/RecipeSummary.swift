/// One line of `recipes list`: a recipe's identity and the facts a list shows. Its JSON
/// form (keys sorted, absent values as `null`) is part of the program's stable interface:
/// `{"id", "name", "type", "prepTime", "overview", "ingredientCount", "hasImage"}`.
public struct RecipeSummary: Sendable, Equatable, Codable {
    /// The document ID.
    public var id: String
    /// The name.
    public var name: String
    /// The type's name.
    public var type: String?
    /// The preparation time.
    public var prepTime: String?
    /// The one-line description.
    public var overview: String?
    /// The number of ingredient lines.
    public var ingredientCount: Int
    /// Whether it has a full-size picture.
    public var hasImage: Bool

    /// Makes a summary.
    public init(id: String, name: String, type: String?, prepTime: String?, overview: String?, ingredientCount: Int, hasImage: Bool) {
        self.id = id
        self.name = name
        self.type = type
        self.prepTime = prepTime
        self.overview = overview
        self.ingredientCount = ingredientCount
        self.hasImage = hasImage
    }

    private enum CodingKeys: String, CodingKey { case id, name, type, prepTime, overview, ingredientCount, hasImage }
}
