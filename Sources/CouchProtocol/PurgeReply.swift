public import DocumentFormat

/// The reply of `POST /{db}/_purge`: `{"purge_seq": null, "purged": {"<id>": ["<rev>", …]}}`,
/// every document asked for listed with the revisions actually purged (CouchDB 3 always
/// answers `purge_seq` as `null`).
public struct PurgeReply: Sendable, Equatable {
    /// The revisions purged per document asked for (empty when none was).
    public var purged: [String: [RevisionID]]

    /// A reply listing `purged`.
    public init(purged: [String: [RevisionID]]) {
        self.purged = purged
    }

    /// Reads a reply; a ``ReplyShapeError`` unless `purged` maps IDs to revision arrays.
    public init(json: JSONValue) throws(ReplyShapeError) {
        guard let object = json.objectValue?["purged"]?.objectValue else { throw ReplyShapeError("purge reply without purged") }
        var purged: [String: [RevisionID]] = [:]
        for (id, value) in object {
            guard let array = value.arrayValue else { throw ReplyShapeError("purge reply entry \(id) is not an array") }
            var revs: [RevisionID] = []
            for element in array {
                guard let text = element.stringValue, let rev = RevisionID(text) else {
                    throw ReplyShapeError("purge reply entry \(id) holds an invalid revision")
                }
                revs.append(rev)
            }
            purged[id] = revs
        }
        self.init(purged: purged)
    }

    /// The reply body.
    public var json: JSONValue {
        ["purge_seq": .null, "purged": .object(purged.mapValues { .array($0.map { .string($0.description) }) })]
    }
}
