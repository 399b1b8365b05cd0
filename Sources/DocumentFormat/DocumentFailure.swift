/// A document revision a database would not write or could not return, and why: CouchDB's
/// `{"id", "rev", "error", "reason"}`.
///
/// The one refusal type: a `_bulk_docs` reply lists refused documents with it, a `_bulk_get`
/// or `open_revs` reply reports a revision it could not return with it, and a replication
/// reports and checkpoints the documents it could not copy with it (a validation function
/// answering `forbidden`, a document `too_large`, a revision `missing`). A sync's record of a
/// refused document wraps it with the direction the document was to go.
public struct DocumentFailure: Sendable, Hashable, CustomStringConvertible {
    /// The document ID.
    public var id: String
    /// The revision that was refused, when known.
    public var rev: RevisionID?
    /// The error keyword (`forbidden`, `unauthorized`, `too_large`, `missing`, …).
    public var error: String
    /// The human-readable reason the peer gave.
    public var reason: String

    /// Makes a failure record.
    public init(id: String, rev: RevisionID?, error: String, reason: String) {
        self.id = id
        self.rev = rev
        self.error = error
        self.reason = reason
    }

    /// Reads `{"id", "rev", "error", "reason"}` as another replica wrote it: a member that is
    /// absent or not a string takes `id`, no revision (as does a `rev` that is not a revision
    /// ID, such as CouchDB's `"undefined"`), `error`, and an empty reason, as servers differ.
    public init(json: JSONObject, id: String, error: String) {
        self.init(id: json["id"]?.stringValue ?? id, rev: json["rev"]?.stringValue.flatMap(RevisionID.init),
                  error: json["error"]?.stringValue ?? error, reason: json["reason"]?.stringValue ?? "")
    }

    /// `{"id", "rev", "error", "reason"}`, without `rev` when it is not known.
    public var json: JSONValue {
        var object: JSONObject = ["id": .string(id), "error": .string(error), "reason": .string(reason)]
        if let rev { object["rev"] = .string(rev.description) }
        return .object(object)
    }

    /// `id@rev: error (reason)`.
    public var description: String {
        "\(id)@\(rev?.description ?? "?"): \(error) (\(reason))"
    }
}
