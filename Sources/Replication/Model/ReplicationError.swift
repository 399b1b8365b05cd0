import DocumentStore

/// Why a replication or a call to a peer failed. Every message names the cause and the fix,
/// and never contains a password (URLs are always shown with credentials masked).
public enum ReplicationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server refused the credentials (HTTP 401).
    case unauthorized(url: String, reason: String)
    /// The credentials are valid but lack permission (HTTP 403).
    case forbidden(url: String, reason: String)
    /// The remote database does not exist (HTTP 404 on the database).
    case databaseNotFound(url: String)
    /// The reply could not be understood (bad JSON, wrong shape, cut short).
    case malformedReply(url: String, detail: String)
    /// The server could not be reached or dropped the connection, after retries.
    case unreachable(url: String, detail: String)
    /// The request timed out, after retries.
    case timedOut(url: String)
    /// Any other HTTP error status.
    case httpStatus(url: String, status: Int, error: String, reason: String)
    /// The remote URL is not usable.
    case invalidURL(String)
    /// The local store failed.
    case store(String)
    /// The replication was cancelled.
    case cancelled

    /// A sentence naming what failed and how to fix it.
    public var description: String {
        switch self {
        case .unauthorized(let url, let reason):
            return "\(url): the server refused the credentials (401 \(reason)); check the user name and password in the remote URL or configuration"
        case .forbidden(let url, let reason):
            return "\(url): access denied (403 \(reason)); give this user access to the database or use an account that has it"
        case .databaseNotFound(let url):
            return "\(url): the remote database does not exist; create it, or push with createTarget enabled"
        case .malformedReply(let url, let detail):
            return "\(url): the server's reply could not be understood (\(detail)); check that the URL points at a CouchDB-compatible database"
        case .unreachable(let url, let detail):
            return "\(url): the server could not be reached (\(detail)); check the host, port and network, then sync again"
        case .timedOut(let url):
            return "\(url): the server did not answer in time; check the network or raise the timeout, then sync again"
        case .httpStatus(let url, let status, let error, let reason):
            return "\(url): the server answered \(status) \(error) (\(reason))"
        case .invalidURL(let text):
            return "invalid remote URL \(text); use http(s)://[user:password@]host[:port]/database"
        case .store(let text):
            return "local store failed: \(text)"
        case .cancelled:
            return "the replication was cancelled; run it again to resume from the last checkpoint"
        }
    }

    /// Whether retrying the same request later may succeed.
    var isTransient: Bool {
        switch self {
        case .unreachable, .timedOut: return true
        case .httpStatus(_, let status, _, _): return status >= 500
        default: return false
        }
    }
}
