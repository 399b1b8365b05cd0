import InteropSupport
import DocumentStore
import Foundation
import DocumentFormat

/// Sends recorded requests to our server as the recorded client would have: same method,
/// path, headers and body, with redacted credentials replaced by real ones, the session
/// cookie our server issued, database names renamed, and CouchDB's opaque sequences replaced
/// by the ones our server handed out at the same point of the conversation.
struct Replayer {
    let client: HTTPTestClient
    var renames: [String: String] = [:]
    var cookie: String?
    var sequences: [String: String] = [:]

    init(client: HTTPTestClient, renames: [String: String] = [:]) {
        self.client = client
        self.renames = renames
    }

    /// Replays one exchange and returns our reply.
    mutating func replay(_ exchange: RecordedExchange) async throws -> HTTPReply {
        var path = exchange.path
        var body = String(decoding: exchange.requestBody, as: UTF8.self)
        let binaryBody = String(data: exchange.requestBody, encoding: .utf8) == nil
        for (from, to) in renames {
            path = path.replacingOccurrences(of: "/\(from)/", with: "/\(to)/")
            if path == "/\(from)" { path = "/\(to)" }
        }
        for (recorded, ours) in sequences {
            path = path.replacingOccurrences(of: recorded, with: ours)
            body = body.replacingOccurrences(of: recorded, with: ours)
        }
        var headers = [String: String]()
        for (name, value) in exchange.requestHeaders {
            switch name.lowercased() {
            case "content-length", "host", "date": continue
            case "authorization":
                let password = exchange.status == 401 ? "wrong-password" : TestServer.password
                headers.merge(HTTPTestClient.basic(TestServer.user, password)) { _, new in new }
            case "cookie":
                if let cookie { headers["Cookie"] = "AuthSession=\(cookie)" }
            default:
                headers[name] = value
            }
        }
        if path == "/_session", exchange.status == 200 {
            body = body.replacingOccurrences(of: "<password>", with: TestServer.password)
        }
        let payload: Data? = exchange.requestBody.isEmpty ? nil : (binaryBody ? exchange.requestBody : Data(body.utf8))
        let reply = try await client.send(exchange.method, path, headers: headers, body: payload)
        if let setCookie = reply.header("Set-Cookie"), setCookie.hasPrefix("AuthSession="),
           let value = setCookie.dropFirst("AuthSession=".count).split(separator: ";").first, !value.isEmpty {
            cookie = String(value)
        }
        if path.contains("/_changes"), let theirs = exchange.responseJSON?.objectValue?["last_seq"]?.stringValue,
           let ours = try? reply.json().objectValue?["last_seq"] {
            sequences[theirs] = ours.stringValue ?? ours.intValue.map { String($0) }
        }
        return reply
    }
}
