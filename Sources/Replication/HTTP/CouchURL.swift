public import Foundation
import HTTPSupport

/// A remote database URL split into the server root, the database name and the credentials,
/// so the credentials can be sent as authentication and never shown.
public struct CouchURL: Sendable, Hashable, CustomStringConvertible {
    /// The server root without credentials, e.g. `http://127.0.0.1:5984`.
    public let serverURL: URL
    /// The database name, decoded (e.g. `recipes`).
    public let databaseName: String
    /// The user name from the URL, if any.
    public let user: String?
    /// The password from the URL, if any (never printed by this type).
    let password: String?

    /// Parses `http(s)://[user[:password]@]host[:port][/prefix]/database`.
    public init(_ text: String) throws {
        guard var components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", components.host?.isEmpty == false
        else { throw ReplicationError.invalidURL(CredentialMask.masked(text)) }
        user = components.user.flatMap { $0.isEmpty ? nil : $0 }
        password = components.password
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/"), slash < path.index(before: path.endIndex) else {
            throw ReplicationError.invalidURL(CredentialMask.masked(text) + " (no database name)")
        }
        let encodedName = String(path[path.index(after: slash)...])
        databaseName = encodedName.removingPercentEncoding ?? encodedName
        components.percentEncodedPath = String(path[..<slash])
        guard let root = components.url else { throw ReplicationError.invalidURL(CredentialMask.masked(text)) }
        serverURL = root
    }

    /// The database URL without credentials: what logs, errors and replication IDs show.
    public var description: String {
        serverURL.absoluteString + "/" + PercentEncoding.pathSegment(databaseName)
    }

    /// The server root with the user name shown and the password masked, e.g.
    /// `http://admin:***@host:5984/db`; for status lines where the user matters.
    public var maskedDescription: String {
        guard let user, var components = URLComponents(url: serverURL, resolvingAgainstBaseURL: false) else { return description }
        components.user = user
        components.password = password
        return CredentialMask.masked((components.url?.absoluteString ?? serverURL.absoluteString) + "/" + PercentEncoding.pathSegment(databaseName))
    }
}
