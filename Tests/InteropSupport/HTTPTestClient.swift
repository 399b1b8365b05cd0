public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
import DocumentStore
public import DocumentFormat

/// A reply as the tests inspect it.
public struct HTTPReply: Sendable {
    /// The status code.
    public var status: Int
    /// The headers, as the server named them.
    public var headers: [String: String]
    /// The body bytes.
    public var body: Data

    /// A reply with these parts.
    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A header value, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// The body parsed as JSON (fails the test through a thrown error when it is not JSON).
    public func json() throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: body) }
}

/// Real HTTP through FoundationNetworking's URLSession, with cookies handled by hand so tests
/// see exactly what the server sends. It shares no code with the project's own HTTP client,
/// so a test that talks to a server through it checks the server, not the client.
public struct HTTPTestClient: Sendable {
    /// The server's root (`http://127.0.0.1:PORT`), without credentials.
    public let base: URL
    /// The session every request goes through.
    public let session: URLSession

    /// A client of the server listening on `port` of 127.0.0.1.
    public init(port: Int) {
        self.init(base: URL(string: "http://127.0.0.1:\(port)")!)
    }

    /// A client of the server at `base` (scheme, host and port; any path is dropped).
    public init(base: URL, timeout: TimeInterval = 60) {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.user = nil
        components.password = nil
        components.path = ""
        components.query = nil
        self.base = components.url ?? base
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        // No shared cookie jar either: other tests' clients log in to other servers on the
        // same host, and their cookies must never ride along with these requests.
        configuration.httpCookieStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        session = URLSession(configuration: configuration)
    }

    /// Sends one request; `path` is used as given (already percent-encoded, with its query).
    public func send(_ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil) async throws -> HTTPReply {
        var request = URLRequest(url: URL(string: base.absoluteString + path)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = body }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var replyHeaders = [String: String]()
        for (key, value) in http.allHeaderFields {
            replyHeaders[String(describing: key)] = String(describing: value)
        }
        return HTTPReply(status: http.statusCode, headers: replyHeaders, body: data)
    }

    /// Sends a JSON body.
    public func send(_ method: String, _ path: String, json: JSONValue, headers: [String: String] = [:]) async throws -> HTTPReply {
        var all = headers
        all["Content-Type"] = "application/json"
        return try await send(method, path, headers: all, body: try JSONEncoder().encode(json))
    }

    /// `Authorization: Basic …` for `user`/`password`.
    public static func basic(_ user: String, _ password: String) -> [String: String] {
        ["Authorization": "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()]
    }
}
