public import DocumentFormat

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
    /// A revision the server could not return.
    case error(Failure)

    /// Why a revision could not be returned: `{"id", "rev", "error", "reason"}`. Each member
    /// is optional, as servers differ; a reader falls back to what it asked for.
    public struct Failure: Sendable, Equatable {
        /// The document ID.
        public var id: String?
        /// The revision text asked for (CouchDB writes `"undefined"` when none was).
        public var rev: String?
        /// The error keyword (`not_found`, `bad_request`, …).
        public var error: String?
        /// The human-readable reason.
        public var reason: String?

        /// Makes a failure.
        public init(id: String?, rev: String?, error: String?, reason: String?) {
            self.id = id
            self.rev = rev
            self.error = error
            self.reason = reason
        }

        /// Reads the inner error object; members that are not strings count as absent.
        public init(json: JSONObject) {
            self.init(id: json["id"]?.stringValue, rev: json["rev"]?.stringValue,
                      error: json["error"]?.stringValue, reason: json["reason"]?.stringValue)
        }

        /// The inner error object, with the members that are known.
        public var json: JSONValue {
            var object = JSONObject()
            if let id { object["id"] = .string(id) }
            if let rev { object["rev"] = .string(rev) }
            if let error { object["error"] = .string(error) }
            if let reason { object["reason"] = .string(reason) }
            return .object(object)
        }
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
            self = .error(Failure(json: error))
        } else {
            throw ReplyShapeError("revision entry of \(documentID) has neither ok, missing nor error")
        }
    }

    /// The entry's JSON: `{"ok": doc}`, `{"missing": rev}` or `{"error": {…}}`.
    public var json: JSONValue {
        switch self {
        case .ok(let document): ["ok": .object(document)]
        case .missing(let rev): ["missing": .string(rev)]
        case .error(let failure): ["error": failure.json]
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
            try writer.appendPart(headers: [("Content-Type", Self.errorPartType)], body: JSONWriter.couchDB.data(failure.json))
        }
    }

    /// The `Content-Type` of a multipart part that reports a revision not returned.
    static let errorPartType = "application/json; error=\"true\""
}
