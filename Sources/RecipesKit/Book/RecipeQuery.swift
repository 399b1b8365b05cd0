/// Which recipes a list shows, in what order, and which page of them.
public struct RecipeQuery: Sendable, Equatable {
    /// Only recipes whose type has this name (ignoring case and accents); `nil`: all.
    public var type: String?
    /// Only recipes whose name, overview, type or an ingredient contains this text (ignoring
    /// case and accents); `nil`: all.
    public var search: String?
    /// The order; `nil`: by name, or by relevance when searching (see ``RecipeBook/recipes(matching:)``).
    public var sort: RecipeSort?
    /// At most this many recipes (`nil`: all).
    public var limit: Int?
    /// Recipes to pass over before the first one shown.
    public var offset: Int

    /// Makes a query.
    public init(type: String? = nil, search: String? = nil, sort: RecipeSort? = nil, limit: Int? = nil, offset: Int = 0) {
        self.type = type
        self.search = search
        self.sort = sort
        self.limit = limit
        self.offset = offset
    }
}

/// The orders `recipes list` can show recipes in.
public enum RecipeSort: String, Sendable, CaseIterable, Codable {
    /// By name, ignoring case (the default).
    case name
    /// By type name, untyped recipes last, then by name.
    case type
    /// By preparation time in minutes (read from the free text), unknown times last, then
    /// by name.
    case prepTime = "prep-time"
}
