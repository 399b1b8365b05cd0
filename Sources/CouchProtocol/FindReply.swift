public import DocumentFormat

/// The reply of `POST /{db}/_find`: `{"docs": [...], "bookmark", "warning"?}`. The one
/// definition the server writes; the replicator does not read it, but a client would read it
/// here.
public struct FindReply: Sendable, Equatable {
    /// The matching documents (projected to the query's `fields`, when it named some).
    public var docs: [JSONObject]
    /// Where a next page would start; opaque.
    public var bookmark: String
    /// A note on how the query ran (for example that no index served it), when the server
    /// gave one.
    public var warning: String?

    /// A reply of `docs`.
    public init(docs: [JSONObject], bookmark: String, warning: String? = nil) {
        self.docs = docs
        self.bookmark = bookmark
        self.warning = warning
    }

    /// Reads a reply; a ``ReplyShapeError`` without a `docs` array of objects or a string
    /// `bookmark`, or with a `warning` that is not a string.
    public init(json: JSONValue) throws(ReplyShapeError) {
        guard let object = json.objectValue, let docs = object["docs"]?.arrayValue else {
            throw ReplyShapeError("find reply without a docs array")
        }
        var parsed: [JSONObject] = []
        parsed.reserveCapacity(docs.count)
        for doc in docs {
            guard let document = doc.objectValue else { throw ReplyShapeError("find reply document is not an object") }
            parsed.append(document)
        }
        guard let bookmark = object["bookmark"]?.stringValue else { throw ReplyShapeError("find reply without a bookmark") }
        var warning: String?
        if let value = object["warning"] {
            guard let text = value.stringValue else { throw ReplyShapeError("find reply field 'warning' is not a string") }
            warning = text
        }
        self.init(docs: parsed, bookmark: bookmark, warning: warning)
    }

    /// The reply body.
    public var json: JSONValue {
        var object: JSONObject = ["docs": .array(docs.map { .object($0) }), "bookmark": .string(bookmark)]
        if let warning { object["warning"] = .string(warning) }
        return .object(object)
    }
}
