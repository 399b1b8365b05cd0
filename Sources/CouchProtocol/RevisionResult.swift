public import DocumentFormat
public import HTTPSupport

/// One revision asked for by `_bulk_get` or `open_revs`, as the server answers it: the
/// document (`{"ok": doc}`), a revision it does not have (`{"missing": rev}`, `open_revs`),
/// or an error (`{"error": {"id", "rev", "error", "reason"}}`, `_bulk_get`).
///
/// The one entry shape both endpoints share, in JSON and as a multipart part, so the server
/// writes and the replicator reads it in one place.
public enum RevisionResult: Sendable, Equatable {
    /// The revision's document JSON, with CouchDB's `_` members.
    case ok(JSONObject)
    /// The revision text asked for, which the server does not have.
    case missing(String)
    /// A revision the server could not return: the inner error object
    /// `{"id", "rev", "error", "reason"}` as written, its `rev` the text asked for, kept as is
    /// (a reader takes it as a `DocumentFailure`, `DocumentFailure.init(json:id:error:)`).
    case error(JSONObject)

    /// The error entry for document `id` at `rev`, the revision text asked for (CouchDB writes
    /// `"undefined"` when none was, and any text that is not a revision ID as it came).
    public static func error(id: String, rev: String?, error: String, reason: String) -> RevisionResult {
        .error(["id": .string(id), "rev": .string(rev ?? "undefined"), "error": .string(error), "reason": .string(reason)])
    }

    /// Reads one entry; a ``ReplyShapeError`` naming `documentID` when it is not an object,
    /// its `ok` is not an object, or it has neither `ok`, a string `missing` nor an `error`
    /// object.
    public init(json: JSONValue, documentID: String) throws(ReplyShapeError) {
        guard let entry = json.objectValue else { throw ReplyShapeError("revision entry of \(documentID) is not an object") }
        if let ok = entry["ok"] {
            guard let document = ok.objectValue else { throw ReplyShapeError("revision of \(documentID) is not an object") }
            self = .ok(document)
        } else if let missing = entry["missing"]?.stringValue {
            self = .missing(missing)
        } else if let error = entry["error"]?.objectValue {
            self = .error(error)
        } else {
            throw ReplyShapeError("revision entry of \(documentID) has neither ok, missing nor error")
        }
    }

    /// The entry's JSON: `{"ok": doc}`, `{"missing": rev}` or `{"error": {…}}`.
    public var json: JSONValue {
        switch self {
        case .ok(let document): ["ok": .object(document)]
        case .missing(let rev): ["missing": .string(rev)]
        case .error(let failure): ["error": .object(failure)]
        }
    }

    /// Appends the entry as one part of a `multipart/mixed` reply, as CouchDB writes them: a
    /// document as `application/json`, a missing revision (`{"missing": rev}`) or an error
    /// (the inner error object) as `application/json; error="true"`.
    public func appendPart<Output>(to writer: inout MultipartWriter<Output>) throws {
        switch self {
        case .ok(let document):
            try writer.appendPart(headers: [("Content-Type", "application/json")], body: JSONWriter.couchDB.data(.object(document)))
        case .missing:
            try writer.appendPart(headers: [("Content-Type", Self.errorPartType)], body: JSONWriter.couchDB.data(json))
        case .error(let failure):
            try writer.appendPart(headers: [("Content-Type", Self.errorPartType)], body: JSONWriter.couchDB.data(.object(failure)))
        }
    }

    /// The `Content-Type` of a multipart part that reports a revision not returned.
    static let errorPartType = "application/json; error=\"true\""
}
