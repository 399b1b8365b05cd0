public import DocumentFormat
/// A Mango-style query over live documents: a selector, a sort order, and a page.
public struct Query: Sendable {
    /// The selector object (`$eq $ne $gt $gte $lt $lte $in $nin $exists $and $or $not`,
    /// dotted field paths, implicit equality and implicit `$and`).
    public var selector: JSONValue
    /// Sort keys, most significant first; values compare in CouchDB collation order and a
    /// missing field sorts before `null`.
    public var sort: [SortField] = []
    /// At most this many results, if set.
    public var limit: Int? = nil
    /// Results to pass over before the first returned.
    public var skip: Int = 0
    /// Whether a declared index may serve the query; `false` forces a full scan (for
    /// benchmarks and for checking an index against the scan). Results are the same either way.
    public var useIndex: Bool = true
    /// The top-level members of each body to read and return (`nil`: whole bodies). The
    /// others are not even parsed, so a caller that needs a few fields of documents holding
    /// long arrays pays for the fields alone. Members the selector and sort use are read for
    /// matching either way.
    public var fields: [String]? = nil

    /// Makes a query.
    public init(selector: JSONValue, sort: [SortField] = [], limit: Int? = nil, skip: Int = 0) {
        self.selector = selector
        self.sort = sort
        self.limit = limit
        self.skip = skip
    }
}
