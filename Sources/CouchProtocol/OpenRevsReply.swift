public import DocumentFormat

/// The JSON reply of `GET /{db}/{docid}?open_revs=…` (with `Accept: application/json`): an
/// array of `{"ok": doc}` or `{"missing": rev}`. The one definition the server writes and the
/// replicator reads; ``OpenRevsMultipartReply`` is its multipart form.
public struct OpenRevsReply: Sendable, Equatable {
    /// The revisions, in the order the server lists them.
    public var entries: [RevisionResult]

    /// A reply of `entries`.
    public init(_ entries: [RevisionResult]) {
        self.entries = entries
    }

    /// Reads a reply for document `documentID`; a ``ReplyShapeError`` when it is not an array
    /// or an entry is malformed.
    public init(json: JSONValue, documentID: String) throws(ReplyShapeError) {
        guard let array = json.arrayValue else { throw ReplyShapeError("open_revs reply is not an array") }
        var entries: [RevisionResult] = []
        entries.reserveCapacity(array.count)
        for element in array { entries.append(try RevisionResult(json: element, documentID: documentID)) }
        self.init(entries)
    }

    /// The reply body.
    public var json: JSONValue { .array(entries.map(\.json)) }
}
