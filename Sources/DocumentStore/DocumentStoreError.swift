/// Why a datastore operation was refused or failed. Each message names the cause and the fix.
public enum DocumentStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The named parent revision is not a current leaf (stale or missing), or a create named
    /// a document that already exists.
    case conflict(id: String)
    /// No such document, revision or attachment.
    case notFound(id: String)
    /// The ID is empty, or starts with `_` without being `_local/…`.
    case invalidDocumentID(String)
    /// A body has a top-level key starting with `_`, which the datastore reserves.
    case reservedField(id: String, field: String)
    /// A body, selector or argument is not acceptable JSON (e.g. a non-finite number).
    case invalidJSON(String)
    /// A revision ID or history is malformed.
    case invalidRevision(String)
    /// An attachment stub names bytes the store does not hold.
    case missingAttachment(id: String, name: String, digest: String)
    /// A revision history is deeper than the store can accept.
    case revisionTooDeep(id: String)
    /// SQLite failed; the text is SQLite's.
    case storage(String)

    /// A sentence naming the cause and what to do about it.
    public var description: String {
        switch self {
        case .conflict(let id):
            return "Document update conflict on '\(id)': the revision named is not the current one "
                + "(or the document already exists). Read the document again and retry with its current revision."
        case .notFound(let id):
            return "Not found: '\(id)'. Check the document ID (and revision or attachment name)."
        case .invalidDocumentID(let id):
            return "Invalid document ID '\(id)': IDs must be non-empty and must not start with '_' "
                + "other than design documents '_design/<name>' (local documents go through putLocal/getLocal/deleteLocal)."
        case .reservedField(let id, let field):
            return "Document '\(id)' has the top-level field '\(field)': fields starting with '_' are reserved. "
                + "Rename the field."
        case .invalidJSON(let reason):
            return "Invalid JSON: \(reason). Fix the value and retry."
        case .invalidRevision(let reason):
            return "Invalid revision: \(reason). Revision IDs look like '<generation>-<hash>' and a history "
                + "lists the revision first, then its ancestors one generation apart."
        case .missingAttachment(let id, let name, let digest):
            return "Attachment '\(name)' of document '\(id)' is a stub for \(digest), which this store does not hold. "
                + "Send the attachment's bytes instead of a stub."
        case .revisionTooDeep(let id):
            return "The revision history of '\(id)' is too deep. Compact the store or lower the history sent."
        case .storage(let message):
            return "Storage failure: \(message). Check the store file's disk space and permissions."
        }
    }
}
