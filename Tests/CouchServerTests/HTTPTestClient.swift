import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import DocumentStore

/// A reply as the tests inspect it.
struct HTTPReply: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    /// A header value, by case-insensitive name.
    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// The body parsed as JSON (fails the test through a thrown error when it is not JSON).
    func json() throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: body) }
}

/// Real HTTP over 127.0.0.1 through FoundationNetworking's URLSession, with cookies handled
/// by hand so tests see exactly what the server sends.
struct HTTPTestClient: Sendable {
    let base: URL
    let session: URLSession

    init(port: Int) {
        base = URL(string: "http://127.0.0.1:\(port)")!
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        // No shared cookie jar either: other tests' clients log in to other servers on the
        // same host, and their cookies must never ride along with these requests.
        configuration.httpCookieStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 30
        session = URLSession(configuration: configuration)
    }

    /// Sends one request; `path` is used as given (already percent-encoded, with its query).
    func send(_ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil) async throws -> HTTPReply {
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
    func send(_ method: String, _ path: String, json: JSONValue, headers: [String: String] = [:]) async throws -> HTTPReply {
        var all = headers
        all["Content-Type"] = "application/json"
        return try await send(method, path, headers: all, body: try JSONEncoder().encode(json))
    }

    /// `Authorization: Basic …` for `user`/`password`.
    static func basic(_ user: String, _ password: String) -> [String: String] {
        ["Authorization": "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()]
    }
}
