public import DocumentFormat
public import Foundation

/// An error in CouchDB's shape: an HTTP status code and a `{"error", "reason"}` body.
///
/// The server replies with it, so CouchDB clients (replicators, PouchDB) recognise and handle
/// it as they would CouchDB's own; the client reads it back from an error reply; and the
/// document codec and multipart parsers throw it, so a malformed document means the same
/// thing on both sides of the wire.
public struct CouchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status code.
    public var status: Int
    /// CouchDB's short error name (`not_found`, `conflict`, …).
    public var error: String
    /// The human-readable reason.
    public var reason: String

    /// Makes an error from its parts.
    public init(status: Int, error: String, reason: String) {
        self.status = status
        self.error = error
        self.reason = reason
    }

    /// `"<status> <error>: <reason>"`.
    public var description: String { "\(status) \(error): \(reason)" }

    /// The error as the JSON body CouchDB sends.
    public var json: JSONValue { .object(["error": .string(error), "reason": .string(reason)]) }

    /// Reads the `{error, reason}` body of an error reply with status `status`; a member the
    /// body lacks (or a body that is not a JSON object) reads as an empty string, because
    /// proxies and other servers do not always send CouchDB's shape.
    public init(status: Int, body: Data) {
        let object = (try? JSONValue.parse(body))?.objectValue ?? [:]
        self.init(status: status, error: object["error"]?.stringValue ?? "", reason: object["reason"]?.stringValue ?? "")
    }

    /// 404: the database does not exist.
    public static let databaseMissing = CouchError(status: 404, error: "not_found", reason: "Database does not exist.")
    /// 412: the database to create already exists.
    public static let databaseExists = CouchError(
        status: 412, error: "file_exists", reason: "The database could not be created, the file already exists.")
    /// 404: no such document or revision.
    public static let missing = CouchError(status: 404, error: "not_found", reason: "missing")
    /// 404: the document is there, without the attachment asked for.
    public static let missingAttachment = CouchError(status: 404, error: "not_found", reason: "Document is missing attachment")
    /// 404: the document's winning revision is a tombstone.
    public static let deleted = CouchError(status: 404, error: "not_found", reason: "deleted")
    /// 409: the edit's parent is not the current leaf.
    public static let conflict = CouchError(status: 409, error: "conflict", reason: "Document update conflict.")
    /// 400: a body that is not UTF-8 JSON.
    public static let invalidJSON = CouchError(status: 400, error: "bad_request", reason: "invalid UTF-8 JSON")
    /// 400: a `_rev` that is not `<generation>-<hash>`.
    public static let invalidRev = CouchError(status: 400, error: "bad_request", reason: "Invalid rev format")
    /// 400: a document ID starting with `_` that is not a design document.
    public static let illegalDocID = CouchError(
        status: 400, error: "illegal_docid", reason: "Only reserved document ids may start with underscore.")
    /// 401: the credentials given are wrong.
    public static let wrongCredentials = CouchError(
        status: 401, error: "unauthorized", reason: "Name or password is incorrect.")
    /// 401: the request needs credentials it did not carry.
    public static let notAuthorized = CouchError(
        status: 401, error: "unauthorized", reason: "You are not authorized to access this db.")
    /// 401: the request needs a server admin.
    public static let notServerAdmin = CouchError(status: 401, error: "unauthorized", reason: "You are not a server admin.")
    /// 413: the body is larger than the server accepts.
    public static let tooLarge = CouchError(status: 413, error: "too_large", reason: "the request entity is too large")
    /// 415: a body in a media type the endpoint does not read (CouchDB's wording).
    public static let badContentType = CouchError(
        status: 415, error: "bad_content_type", reason: "Content-Type must be application/json")
    /// 503: the server holds as many request bodies as it may; the client should retry.
    public static let bodyBudgetExhausted = CouchError(
        status: 503, error: "service_unavailable",
        reason: "The server is holding as many request bodies as it may; retry shortly.")
    /// 503: the datastore stayed locked by another connection longer than the server waits;
    /// the same request can succeed when retried.
    public static let storeBusy = CouchError(
        status: 503, error: "service_unavailable",
        reason: "The database is busy with another writer; retry shortly.")
    /// 405: the resource does not answer this method.
    public static let methodNotAllowed = CouchError(
        status: 405, error: "method_not_allowed", reason: "Only the documented methods are allowed for this resource.")

    /// 400 `bad_request` with `reason`.
    public static func badRequest(_ reason: String) -> CouchError {
        CouchError(status: 400, error: "bad_request", reason: reason)
    }

    /// 400 `illegal_database_name` for `name`, with CouchDB's explanation of the rule.
    public static func illegalDatabaseName(_ name: String) -> CouchError {
        CouchError(
            status: 400, error: "illegal_database_name",
            reason: "Name: '\(name)'. Only lowercase characters (a-z), digits (0-9), and any of the characters _, $, (, ), +, -, and / are allowed. Must begin with a letter."
        )
    }

    /// 400 `doc_validation` for a `_`-prefixed member CouchDB does not accept in a document.
    public static func badSpecialMember(_ field: String) -> CouchError {
        CouchError(status: 400, error: "doc_validation", reason: "Bad special document member: \(field)")
    }

    /// 412 `missing_stub`: an attachment stub names bytes the receiver does not have.
    public static func missingStub(_ reason: String) -> CouchError {
        CouchError(status: 412, error: "missing_stub", reason: reason)
    }

    /// The CouchDB error for a value the document format refused: 400 `bad_request`, naming
    /// what is wrong, as CouchDB answers a body, selector or revision it cannot read.
    public init(_ formatError: DocumentFormatError) {
        switch formatError {
        case .invalidJSON(let reason): self = .badRequest(reason)
        case .invalidRevision: self = .invalidRev
        }
    }
}
