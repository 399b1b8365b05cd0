import Foundation
import InteropSupport
import Testing
import TestSupport

/// `recipes web` started as a real process on a free port of 127.0.0.1, over a sandboxed
/// store; stopped when dropped.
final class WebServerProcess: Sendable {
    let process: RunningProcess
    /// `http://127.0.0.1:PORT`, as the server printed it.
    let baseURL: String

    /// Starts `recipes web --port 0` with `arguments` and waits for its "listening on" line.
    init(in sandbox: Sandbox, arguments: [String]) async throws {
        process = try await sandbox.start(["web", "--port", "0"] + arguments)
        guard let out = await process.waitForOutput(containing: "listening on ", timeout: 60) else {
            throw WebTestError("recipes web did not start: \(process.stderr)")
        }
        let line = out.split(separator: "\n").first { $0.contains("listening on ") } ?? ""
        baseURL = String(line.split(separator: " ").last ?? "")
    }


    /// The port it listens on.
    var port: Int { URL(string: baseURL)?.port ?? 0 }
}

/// A browser-like client of `recipes web` for tests without a browser: it keeps the session
/// cookie, follows the redirect after a post (as a browser does), and posts forms as
/// `multipart/form-data`.
struct WebClient: Sendable {
    let http: HTTPTestClient
    /// The `recipes_session` cookie, once the server set one.
    let cookie: String

    /// Opens a session: the first page sets its cookie.
    init(_ server: WebServerProcess) async throws {
        http = HTTPTestClient(base: URL(string: server.baseURL)!)
        let first = try await http.send("GET", "/")
        guard let setCookie = first.header("Set-Cookie"), let pair = setCookie.split(separator: ";").first else {
            throw WebTestError("no session cookie on the first page: \(first.headers)")
        }
        cookie = String(pair)
    }

    /// GET `path` with the session cookie.
    func get(_ path: String, headers: [String: String] = [:]) async throws -> HTTPReply {
        try await http.send("GET", path, headers: headers.merging(["Cookie": cookie]) { a, _ in a })
    }

    /// The page at `path` as text.
    func page(_ path: String) async throws -> String {
        String(decoding: try await get(path).body, as: UTF8.self)
    }

    /// The value of the first hidden input `name` in `html`.
    static func hidden(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = html[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// Posts `fields` (in order; a `Data` value is sent as a file) to `path` as
    /// `multipart/form-data`, with the session cookie.
    func post(_ path: String, _ fields: [(String, FormValue)]) async throws -> HTTPReply {
        let boundary = "test-\(UUID().uuidString)"
        var body = Data()
        for (name, value) in fields {
            body += Data("--\(boundary)\r\n".utf8)
            switch value {
            case .text(let text):
                body += Data("Content-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(text)\r\n".utf8)
            case .file(let fileName, let data):
                body += Data("Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(fileName)\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
                body += data + Data("\r\n".utf8)
            }
        }
        body += Data("--\(boundary)--\r\n".utf8)
        return try await http.send("POST", path, headers: ["Cookie": cookie, "Content-Type": "multipart/form-data; boundary=\(boundary)"],
                                   body: body)
    }

    /// A form field's value.
    enum FormValue: Sendable {
        case text(String)
        case file(name: String, Data)
    }
}

/// A failure of the web tests' own set-up.
struct WebTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension HTTPReply {
    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Photos for the web tests: real JPEGs from the package's sample data, and broken ones.
enum WebFixtures {
    /// A real JPEG photo (the sample carbonara).
    static var jpeg: Data {
        get throws {
            try Data(contentsOf: CLIBinary.packageRoot.appendingPathComponent(
                "Sources/RecipesKit/Resources/SampleData/images/classics-carbonara.jpg"))
        }
    }
}
