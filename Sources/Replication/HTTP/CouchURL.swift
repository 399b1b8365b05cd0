public import Foundation
import CouchProtocol

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
        serverURL.absoluteString + "/" + CouchURL.encodeSegment(databaseName)
    }

    /// The server root with the user name shown and the password masked, e.g.
    /// `http://admin:***@host:5984/db`; for status lines where the user matters.
    public var maskedDescription: String {
        guard let user else { return description }
        var components = URLComponents(url: serverURL, resolvingAgainstBaseURL: false)!
        components.user = user
        components.percentEncodedPassword = password == nil ? nil : "***"
        return (components.url?.absoluteString ?? serverURL.absoluteString) + "/" + CouchURL.encodeSegment(databaseName)
    }

    /// Percent-encodes one path segment (a database name or a document ID).
    static func encodeSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: segmentAllowed) ?? text
    }

    /// Percent-encodes a document ID as a path: a design document keeps the slash after
    /// `_design` (`_design/name`), as CouchDB writes and expects it; any other ID is one segment.
    static func encodeDocumentID(_ id: String) -> String {
        if id.hasPrefix("_design/") { return "_design/" + encodeSegment(String(id.dropFirst("_design/".count))) }
        return encodeSegment(id)
    }

    /// Percent-encodes a query value.
    static func encodeQueryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? text
    }

    private static let segmentAllowed: CharacterSet = {
        var set = CharacterSet.alphanumerics
        set.insert(charactersIn: "-._~!$&'()*,;=:@")
        return set
    }()

    private static let queryAllowed: CharacterSet = {
        var set = CharacterSet.alphanumerics
        set.insert(charactersIn: "-._~")
        return set
    }()
}
