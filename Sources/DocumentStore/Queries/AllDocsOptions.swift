import DocumentFormat
/// Options of an `_all_docs`-style listing of live documents by ID.
public struct AllDocsOptions: Sendable {
    /// First ID (inclusive); with `descending`, the highest ID.
    public var startKey: String?
    /// Last ID; with `descending`, the lowest ID.
    public var endKey: String?
    /// Whether `endKey` itself is included.
    public var inclusiveEnd = true
    /// At most this many documents, if set.
    public var limit: Int?
    /// Documents to pass over first.
    public var skip = 0
    /// Highest ID first.
    public var descending = false

    /// Makes listing options; every argument has CouchDB's default.
    public init(startKey: String? = nil, endKey: String? = nil, inclusiveEnd: Bool = true,
                limit: Int? = nil, skip: Int = 0, descending: Bool = false) {
        self.startKey = startKey
        self.endKey = endKey
        self.inclusiveEnd = inclusiveEnd
        self.limit = limit
        self.skip = skip
        self.descending = descending
    }
}
