public import DocumentFormat

/// The reply of `POST /{db}/_missing_revs` (the older form of `_revs_diff`, which some
/// clients still send): `{"missing_revs": {"<id>": ["<rev>", …], …}}`, listing only the
/// documents with a revision missing. The request body is `_revs_diff`'s
/// (``RevsDiffMessage/Request``).
public struct MissingRevsReply: Sendable, Equatable {
    /// The missing revision texts per document, in the order they were offered.
    public var missing: [String: [String]]

    /// A reply listing `missing` (documents with an empty list are left out).
    public init(missing: [String: [String]]) {
        self.missing = missing.filter { !$0.value.isEmpty }
    }

    /// The reply to the same offer `_revs_diff` answered with `diff`.
    public init(_ diff: RevsDiffMessage.Response) {
        var missing: [String: [String]] = [:]
        for id in Set(diff.entries.keys).union(diff.unparseable.keys) {
            missing[id] = (diff.entries[id]?.missing.map(\.description) ?? []) + (diff.unparseable[id] ?? [])
        }
        self.init(missing: missing)
    }

    /// Reads a reply; a ``ReplyShapeError`` unless `missing_revs` maps IDs to string arrays.
    public init(json: JSONValue) throws(ReplyShapeError) {
        guard let object = json.objectValue?["missing_revs"]?.objectValue else {
            throw ReplyShapeError("missing_revs reply without a missing_revs object")
        }
        var missing: [String: [String]] = [:]
        for (id, value) in object {
            guard let revs = value.arrayValue?.compactMap(\.stringValue), revs.count == value.arrayValue?.count else {
                throw ReplyShapeError("missing_revs entry \(id) is not an array of strings")
            }
            missing[id] = revs
        }
        self.init(missing: missing)
    }

    /// The reply body.
    public var json: JSONValue {
        ["missing_revs": .object(missing.mapValues { .array($0.map { .string($0) }) })]
    }
}
