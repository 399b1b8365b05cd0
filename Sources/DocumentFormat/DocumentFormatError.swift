/// Why a value is not an acceptable document, selector or revision, whoever sent it. The
/// datastore reports these as its own `invalidJSON` and `invalidRevision` errors, and the
/// server answers them with CouchDB's 400 `bad_request` and `bad_request` "Invalid rev
/// format", so each layer can name the cause without knowing where the value came from.
public enum DocumentFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A body, selector or argument is not acceptable JSON (not JSON at all, too deep, a
    /// non-finite number, an unknown selector operator); the text names what and where.
    case invalidJSON(String)
    /// A revision ID or history is malformed, or a revision cannot have a child.
    case invalidRevision(String)

    /// A sentence naming the cause and what to do about it.
    public var description: String {
        switch self {
        case .invalidJSON(let reason):
            return "Invalid JSON: \(reason). Fix the value and retry."
        case .invalidRevision(let reason):
            return "Invalid revision: \(reason). Revision IDs look like '<generation>-<hash>' and a history "
                + "lists the revision first, then its ancestors one generation apart."
        }
    }
}
