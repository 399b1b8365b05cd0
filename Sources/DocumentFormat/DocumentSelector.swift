/// A Mango selector parsed once, to test documents against one by one: CouchDB's `_selector`
/// changes filter, and a selective replication. Matching follows `_find` (a missing field
/// fails every condition but `$exists: false`; `_id` is the document ID).
public struct DocumentSelector: Sendable {
    private let selector: Selector
    /// The selector as given, for requests and replication IDs.
    public let json: JSONValue

    /// Parses a selector object; ``DocumentFormatError/invalidJSON(_:)`` names what is wrong (an
    /// unknown operator, a malformed condition), so it can be refused before any work.
    public init(_ json: JSONValue) throws {
        guard case .object = json else { throw DocumentFormatError.invalidJSON("a selector must be a JSON object") }
        self.selector = try Selector(parsing: json)
        self.json = json
    }

    /// Whether the document `id` with the (winning, live) `body` matches.
    public func matches(id: String, body: JSONObject) -> Bool {
        selector.matches(body, id: id)
    }
}
