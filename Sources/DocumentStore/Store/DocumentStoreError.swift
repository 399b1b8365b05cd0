public import DocumentFormat
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
    /// The store could not do its work for a reason outside SQLite (a file it cannot create,
    /// a transaction already open, a stored value it cannot read); the text names it.
    case storage(String)
    /// SQLite failed; its codes and message are kept, so a busy store (``isTransient``) can
    /// be told from a broken one.
    case sqlite(SQLiteFailure)
    /// The file at `path` is an SQLite database of another program; it is left untouched.
    case foreignDatabase(path: String, reason: String)

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
        case .foreignDatabase(let path, let reason):
            return "The file \(path) is not a store: \(reason). It was left as it is; choose another file, "
                + "or move this one away to start a new store there."
        case .sqlite(let failure) where failure.isTransient:
            return "The store is busy (\(failure)): another connection held its lock longer than the store waits. "
                + "Retry the operation."
        case .sqlite(let failure) where failure.resultCode == 21:
            return "The store was used after it was closed (\(failure)). Open the store again before using it."
        case .sqlite(let failure) where failure.resultCode == 26:
            return "The file is not a store: it is not an SQLite database (\(failure)). "
                + "Choose another file, or move this one away and start a new store."
        case .sqlite(let failure) where failure.resultCode == 11:
            return "The store file is damaged (\(failure)). "
                + "Restore it from a backup, or move it away and sync a new store from the remote."
        case .sqlite(let failure):
            return "Storage failure: \(failure). Check the store file's disk space and permissions."
        }
    }

    /// Whether retrying the same operation can succeed: the store was busy, nothing is wrong
    /// with the request or the file.
    public var isTransient: Bool {
        if case .sqlite(let failure) = self { return failure.isTransient }
        return false
    }

    /// The store's own error for a value the document format refused, so a caller of the
    /// store sees one error type whatever layer found the fault.
    public init(_ format: DocumentFormatError) {
        switch format {
        case .invalidJSON(let reason): self = .invalidJSON(reason)
        case .invalidRevision(let reason): self = .invalidRevision(reason)
        }
    }

    /// Runs `body`, reporting a format refusal (a selector, field path or revision the
    /// store was handed) as the store's error of the same kind; other errors pass through.
    static func reporting<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let format as DocumentFormatError { throw DocumentStoreError(format) }
    }
}
