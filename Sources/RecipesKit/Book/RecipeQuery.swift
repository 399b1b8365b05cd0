/// Which recipes a list shows and in what order.
public struct RecipeQuery: Sendable, Equatable {
    /// Only recipes whose type has this name (ignoring case and accents); `nil`: all.
    public var type: String?
    /// Only recipes whose name, overview, type or an ingredient contains this text (ignoring
    /// case and accents); `nil`: all.
    public var search: String?
    /// The order.
    public var sort: RecipeSort

    /// Makes a query.
    public init(type: String? = nil, search: String? = nil, sort: RecipeSort = .name) {
        self.type = type
        self.search = search
        self.sort = sort
    }
}
