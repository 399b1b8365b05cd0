public import DocumentFormat

/// The reply of a single-document write (`PUT|POST|DELETE` of a document, an attachment or a
/// `_local` checkpoint): `{"ok": true, "id", "rev"}`. The one definition the server writes
/// and the replicator reads (it sends the `rev` of its checkpoint with the next write).
public struct DocumentWriteReply: Sendable, Equatable {
    /// The document ID, with its `_local/` or `_design/` prefix.
    public var id: String
    /// The new revision, as text: a `_local` document's is `0-N`, not a revision ID.
    public var rev: String

    /// A reply for `rev` of `id`.
    public init(id: String, rev: String) {
        self.id = id
        self.rev = rev
    }

    /// Reads a reply; a ``ReplyShapeError`` when it is not an object with string `id` and
    /// `rev`.
    public init(json: JSONValue) throws(ReplyShapeError) {
        guard let object = json.objectValue, let rev = object["rev"]?.stringValue else {
            throw ReplyShapeError("document write reply without rev")
        }
        guard let id = object["id"]?.stringValue else { throw ReplyShapeError("document write reply without id") }
        self.init(id: id, rev: rev)
    }

    /// The reply body.
    public var json: JSONValue { ["ok": true, "id": .string(id), "rev": .string(rev)] }
}
