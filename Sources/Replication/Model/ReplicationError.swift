import DocumentStore

/// Why a replication or a call to a peer failed. Every message names the cause and the fix,
/// and never contains a password (URLs are always shown with credentials masked).
///
/// Two errors are equal when their cases and payloads are; store errors compare their
/// messages and their causes' types and messages.
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
    /// The `https://` server's certificate is not trusted (not signed by a trusted CA,
    /// expired, or issued for another name): the connection was refused, never downgraded.
    case untrustedCertificate(url: String, host: String, reason: String)
    /// Any other HTTP error status.
    case httpStatus(url: String, status: Int, error: String, reason: String)
    /// The remote URL is not usable.
    case invalidURL(String)
    /// The local store failed: what was being done, naming the cause and the fix, and the
    /// error underneath when there is one (a `DocumentStoreError`, a file-system error), kept
    /// so callers can switch on it.
    case store(String, cause: (any Error & Sendable)? = nil)
    /// The replication was cancelled.
    case cancelled
    /// The replication's selector is not a valid Mango selector; nothing was transferred.
    case invalidSelector(String)

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
            return "\(url): the server could not be reached or the connection broke off (\(detail)); check the host, port and network, then sync again"
        case .timedOut(let url):
            return "\(url): the server did not answer in time; check the network or raise the timeout, then sync again"
        case .untrustedCertificate(_, let host, let reason):
            return "\(host): the server's certificate is not trusted (\(reason)); give the CA certificate that signed it with --ca-file (or RECIPES_CA_FILE, or \"caFile\" in the configuration file), or fix the server's certificate"
        case .httpStatus(let url, let status, let error, let reason):
            return "\(url): the server answered \(status) \(error) (\(reason))"
        case .invalidURL(let text):
            return "invalid remote URL \(text); use http(s)://[user:password@]host[:port]/database"
        case .store(let text, _):
            return "local store failed: \(text)"
        case .cancelled:
            return "the replication was cancelled; run it again to resume from the last checkpoint"
        case .invalidSelector(let reason):
            return "invalid selector: \(reason); write a Mango selector object such as {\"type\":\"Recipe\"}"
        }
    }

    /// Whether two errors are the same (store causes compared by type and message, since
    /// an arbitrary error cannot be compared otherwise).
    public static func == (lhs: ReplicationError, rhs: ReplicationError) -> Bool {
        switch (lhs, rhs) {
        case let (.unauthorized(a, b), .unauthorized(c, d)): return a == c && b == d
        case let (.forbidden(a, b), .forbidden(c, d)): return a == c && b == d
        case let (.databaseNotFound(a), .databaseNotFound(b)): return a == b
        case let (.malformedReply(a, b), .malformedReply(c, d)): return a == c && b == d
        case let (.unreachable(a, b), .unreachable(c, d)): return a == c && b == d
        case let (.timedOut(a), .timedOut(b)): return a == b
        case let (.untrustedCertificate(a, b, c), .untrustedCertificate(d, e, f)): return a == d && b == e && c == f
        case let (.httpStatus(a, b, c, d), .httpStatus(e, f, g, h)): return a == e && b == f && c == g && d == h
        case let (.invalidURL(a), .invalidURL(b)): return a == b
        case let (.invalidSelector(a), .invalidSelector(b)): return a == b
        case let (.store(a, x), .store(b, y)):
            switch (x, y) {
            case (nil, nil): return a == b
            case let (x?, y?): return a == b && type(of: x) == type(of: y) && String(describing: x) == String(describing: y)
            default: return false
            }
        case (.cancelled, .cancelled): return true
        default: return false
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
