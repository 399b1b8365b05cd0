import CouchProtocol
import DocumentFormat
import Foundation
import Replication
import HTTPSupport

/// One side of a server-side replication, as `POST /_replicate` and `_replicator` documents
/// name it: a database of this server by name (`"recipes"`), or a database URL, as a string
/// (`http://user:pw@host:5984/db`) or CouchDB's object form
/// (`{"url": "...", "headers": {"Authorization": "Basic ..."}}`).
///
/// Credentials are kept for the connection only: `display` and `identity` never show them.
enum ReplicationEndpoint: Sendable, Hashable {
    /// A database this server holds.
    case local(String)
    /// A database over HTTP: the URL as given (it may carry `user:password@`), and the
    /// credentials of a basic `Authorization` header, when the object form gave one.
    case remote(url: String, user: String?, password: String?)

    /// Reads the `field` (`source` or `target`) of a request; 400 `bad_request` when it is
    /// missing, not a string or an object with a `url` string, or not a usable URL or name.
    init(_ value: JSONValue?, field: String) throws {
        guard let value else { throw CouchError.badRequest("Missing required field: \(field)") }
        switch value {
        case .string(let text):
            self = try Self.parse(text, field: field, user: nil, password: nil)
        case .object(let object):
            guard let url = object["url"]?.stringValue else {
                throw CouchError.badRequest("The \(field) object needs a url string")
            }
            var user: String?
            var password: String?
            if let headers = object["headers"] {
                guard case .object(let fields) = headers else {
                    throw CouchError.badRequest("The \(field) headers must be an object")
                }
                for (name, header) in fields where name.lowercased() == "authorization" {
                    guard let text = header.stringValue else {
                        throw CouchError.badRequest("The \(field) Authorization header must be a string")
                    }
                    (user, password) = try Self.basicCredentials(text, field: field)
                }
            }
            self = try Self.parse(url, field: field, user: user, password: password)
        default:
            throw CouchError.badRequest("The \(field) must be a database name, a URL string or an object with a url")
        }
    }

    private static func parse(_ text: String, field: String, user: String?, password: String?) throws -> ReplicationEndpoint {
        guard text.contains("://") else {
            guard (try? DatabaseName(validating: text)) != nil else {
                throw CouchError.badRequest("The \(field) '\(CredentialMask.masked(text))' is neither a database name nor a URL")
            }
            // Account documents hold password hashes, which no reply shows: `_users` is not
            // copied anywhere, nor overwritten by copies that skip the hashing.
            if text == UserAccounts.databaseName {
                throw CouchError(status: 403, error: "forbidden",
                                 reason: "The _users database cannot be replicated by the server: its documents hold password hashes.")
            }
            return .local(text)
        }
        do {
            _ = try CouchURL(text)
        } catch {
            throw CouchError.badRequest("The \(field) URL \(CredentialMask.masked(text)) is not usable; write http(s)://[user:password@]host[:port]/database")
        }
        return .remote(url: text, user: user, password: password)
    }

    /// The user and password of a `Basic` authorization header.
    private static func basicCredentials(_ header: String, field: String) throws -> (String, String) {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let decoded = Data(base64Encoded: String(parts[1])).flatMap({ String(data: $0, encoding: .utf8) }),
              let colon = decoded.firstIndex(of: ":")
        else { throw CouchError.badRequest("The \(field) Authorization header must be Basic credentials") }
        return (String(decoded[..<colon]), String(decoded[decoded.index(after: colon)...]))
    }

    /// The endpoint without credentials, stable across runs: part of the job's ID.
    var identity: String {
        switch self {
        case .local(let name): return "local:" + name
        case .remote(let url, _, _): return (try? CouchURL(url).description) ?? CredentialMask.masked(url)
        }
    }

    /// What replies and task lists show: a remote URL without credentials and with CouchDB's
    /// trailing slash, or a local database's name.
    var display: String {
        switch self {
        case .local(let name): return name
        case .remote(let url, _, _): return ((try? CouchURL(url).description) ?? CredentialMask.masked(url)) + "/"
        }
    }
}
