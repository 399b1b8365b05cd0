public import CouchProtocol
public import DocumentStore
import DocumentFormat

extension CouchError {
    /// The CouchDB error for a datastore error, as CouchDB names the same failures; a busy
    /// store is the retryable 503 a replicator backs off from.
    public init(_ storeError: DocumentStoreError) {
        switch storeError {
        case .conflict: self = .conflict
        case .notFound: self = .missing
        case .invalidDocumentID: self = .illegalDocID
        case .reservedField(_, let field): self = .badSpecialMember(field)
        case .invalidJSON(let reason): self = CouchError(DocumentFormatError.invalidJSON(reason))
        case .invalidRevision(let reason): self = CouchError(DocumentFormatError.invalidRevision(reason))
        case .missingAttachment(_, let name, _):
            self = .missingStub("Attachment '\(name)' is a stub and the server has no data for it; send its data.")
        case .revisionTooDeep(let id):
            self = .badRequest("Revision history of '\(id)' is too deep.")
        case .storage(let message):
            self = CouchError(status: 500, error: "internal_server_error", reason: message)
        case .foreignDatabase:
            self = CouchError(status: 500, error: "internal_server_error", reason: storeError.description)
        case .sqlite(let failure) where failure.isTransient:
            self = .storeBusy
        case .sqlite(let failure):
            self = CouchError(status: 500, error: "internal_server_error", reason: failure.description)
        }
    }

    /// The error for anything a handler throws: CouchDB-shaped errors pass through, datastore
    /// and document-format errors map to CouchDB's, anything else is a 500.
    public static func from(_ error: any Error) -> CouchError {
        switch error {
        case let couch as CouchError: return couch
        case let store as DocumentStoreError: return CouchError(store)
        case let format as DocumentFormatError: return CouchError(format)
        default: return CouchError(status: 500, error: "unknown_error", reason: String(describing: error))
        }
    }
}
