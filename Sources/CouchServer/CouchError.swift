import DocumentStore

/// An HTTP error reply in CouchDB's shape: a status code and a `{"error", "reason"}` body, so
/// CouchDB clients (replicators, PouchDB) recognise and handle it as they would CouchDB's own.
public struct CouchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status code.
    public var status: Int
    /// CouchDB's short error name (`not_found`, `conflict`, …).
    public var error: String
    /// The human-readable reason.
    public var reason: String

    /// Makes an error reply from its parts.
    public init(status: Int, error: String, reason: String) {
        self.status = status
        self.error = error
        self.reason = reason
    }

    /// `"<status> <error>: <reason>"`.
    public var description: String { "\(status) \(error): \(reason)" }

    static let databaseMissing = CouchError(status: 404, error: "not_found", reason: "Database does not exist.")
    static let databaseExists = CouchError(
        status: 412, error: "file_exists", reason: "The database could not be created, the file already exists.")
    static let missing = CouchError(status: 404, error: "not_found", reason: "missing")
    static let deleted = CouchError(status: 404, error: "not_found", reason: "deleted")
    static let conflict = CouchError(status: 409, error: "conflict", reason: "Document update conflict.")
    static let invalidJSON = CouchError(status: 400, error: "bad_request", reason: "invalid UTF-8 JSON")
    static let invalidRev = CouchError(status: 400, error: "bad_request", reason: "Invalid rev format")
    static let illegalDocID = CouchError(
        status: 400, error: "illegal_docid", reason: "Only reserved document ids may start with underscore.")
    static let wrongCredentials = CouchError(
        status: 401, error: "unauthorized", reason: "Name or password is incorrect.")
    static let notAuthorized = CouchError(
        status: 401, error: "unauthorized", reason: "You are not authorized to access this db.")
    static let notServerAdmin = CouchError(status: 401, error: "unauthorized", reason: "You are not a server admin.")
    static let tooLarge = CouchError(status: 413, error: "too_large", reason: "the request entity is too large")
    static let methodNotAllowed = CouchError(
        status: 405, error: "method_not_allowed", reason: "Only the documented methods are allowed for this resource.")

    static func badRequest(_ reason: String) -> CouchError {
        CouchError(status: 400, error: "bad_request", reason: reason)
    }

    static func illegalDatabaseName(_ name: String) -> CouchError {
        CouchError(
            status: 400, error: "illegal_database_name",
            reason: "Name: '\(name)'. Only lowercase characters (a-z), digits (0-9), and any of the characters _, $, (, ), +, -, and / are allowed. Must begin with a letter."
        )
    }

    static func badSpecialMember(_ field: String) -> CouchError {
        CouchError(status: 400, error: "doc_validation", reason: "Bad special document member: \(field)")
    }

    /// The CouchDB reply for a datastore error.
    init(_ storeError: DocumentStoreError) {
        switch storeError {
        case .conflict: self = .conflict
        case .notFound: self = .missing
        case .invalidDocumentID: self = .illegalDocID
        case .reservedField(_, let field): self = .badSpecialMember(field)
        case .invalidJSON(let reason): self = .badRequest(reason)
        case .invalidRevision: self = .invalidRev
        case .missingAttachment(_, let name, _):
            self = CouchError(
                status: 412, error: "missing_stub",
                reason: "Attachment '\(name)' is a stub and the server has no data for it; send its data.")
        case .revisionTooDeep(let id):
            self = .badRequest("Revision history of '\(id)' is too deep.")
        case .storage(let message):
            self = CouchError(status: 500, error: "internal_server_error", reason: message)
        }
    }

    /// The reply for any error a handler throws: CouchDB-shaped errors pass through, datastore
    /// errors map to CouchDB's, anything else is a 500.
    static func from(_ error: any Error) -> CouchError {
        switch error {
        case let couch as CouchError: return couch
        case let store as DocumentStoreError: return CouchError(store)
        default: return CouchError(status: 500, error: "unknown_error", reason: String(describing: error))
        }
    }

    /// The error as the JSON body CouchDB sends.
    var json: JSONValue { .object(["error": .string(error), "reason": .string(reason)]) }
}
