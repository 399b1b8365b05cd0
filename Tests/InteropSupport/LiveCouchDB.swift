import DocumentStore
public import Foundation
public import DocumentFormat
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// A live Apache CouchDB that the interop tests talk to, named by the `COUCHDB_URL`
/// environment variable (`http://USER:PASSWORD@HOST:PORT`, as `.ci/run` sets it).
///
/// Recorded traffic only shows what CouchDB answered once; a live server also answers the
/// requests nobody recorded, and runs its own replicator against ours. Without `COUCHDB_URL`
/// the tests that need one are skipped (see ``isConfigured``), so a fresh clone still passes;
/// with it set, a server that does not answer fails them with one line naming the URL.
public struct LiveCouchDB: Sendable {
    /// The environment variable naming the server.
    public static let variable = "COUCHDB_URL"

    /// Whether `COUCHDB_URL` is set. Suites that need a live CouchDB are enabled by it.
    public static var isConfigured: Bool {
        !(ProcessInfo.processInfo.environment[variable] ?? "").isEmpty
    }

    /// The server's root URL with its credentials, without a trailing slash.
    public let url: URL
    /// A raw HTTP client of the server (no credentials in it: send ``auth`` with each request).
    public let client: HTTPTestClient
    /// The `Authorization` header of the URL's credentials (empty when it has none).
    public let auth: [String: String]
    /// The version the server reports in `GET /`.
    public let version: String

    /// Connects to the server `COUCHDB_URL` names.
    /// - Throws: ``LiveCouchDBError`` when the variable is unset or malformed, or the server
    ///   does not answer as a CouchDB within `timeout` seconds.
    public static func connect(timeout: TimeInterval = 10) async throws -> LiveCouchDB {
        try await connect(to: ProcessInfo.processInfo.environment[variable] ?? "", timeout: timeout)
    }

    /// Connects to the CouchDB at `text`, checking that `GET /` answers as CouchDB does.
    public static func connect(to text: String, timeout: TimeInterval = 10) async throws -> LiveCouchDB {
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        guard let url = URL(string: trimmed), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw LiveCouchDBError("\(variable) \(masked(text).debugDescription) is not an http(s) URL of a CouchDB server")
        }
        let client = HTTPTestClient(base: url, timeout: timeout)
        var auth: [String: String] = [:]
        if let user = url.user {
            auth = HTTPTestClient.basic(user.removingPercentEncoding ?? user, (url.password ?? "").removingPercentEncoding ?? "")
        }
        let reply: HTTPReply
        do {
            reply = try await client.send("GET", "/", headers: auth)
        } catch {
            throw LiveCouchDBError("\(variable) \(masked(text)) is unreachable: \(error.localizedDescription)")
        }
        guard reply.status == 200, let welcome = try? reply.json().objectValue, welcome["couchdb"] == "Welcome",
              let version = welcome["version"]?.stringValue else {
            throw LiveCouchDBError("\(variable) \(masked(text)) answered GET / with \(reply.status), not as a CouchDB server")
        }
        let probe = try await client.send("GET", "/_session", headers: auth)
        guard probe.status == 200, let context = try? probe.json().objectValue?["userCtx"]?.objectValue,
              context["roles"]?.arrayValue?.contains("_admin") == true else {
            throw LiveCouchDBError("\(variable) \(masked(text)) does not log in as a server administrator (the URL needs an admin's USER:PASSWORD)")
        }
        return LiveCouchDB(url: url, client: client, auth: auth, version: version)
    }

    /// `url` with its password replaced by `***`, for messages.
    public static func masked(_ text: String) -> String {
        guard let at = text.range(of: "@"), let scheme = text.range(of: "://"), scheme.upperBound < at.lowerBound else { return text }
        let credentials = text[scheme.upperBound..<at.lowerBound]
        guard let colon = credentials.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at.lowerBound...])
    }

    /// The server's URL with its password masked.
    public var maskedURL: String { Self.masked(url.absoluteString) }

    /// The URL of database `name`, credentials included, as a replication source or target.
    public func databaseURL(_ name: String) -> String { url.absoluteString + "/" + name }

    /// Sends a request to the server as its administrator.
    public func send(_ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil) async throws -> HTTPReply {
        try await client.send(method, path, headers: auth.merging(headers) { $1 }, body: body)
    }

    /// Sends a JSON body to the server as its administrator.
    public func send(_ method: String, _ path: String, json: JSONValue, headers: [String: String] = [:]) async throws -> HTTPReply {
        try await client.send(method, path, json: json, headers: auth.merging(headers) { $1 })
    }

    /// Creates a database with a fresh name that starts with `label`, and returns the name.
    public func makeDatabase(_ label: String) async throws -> String {
        let name = "interop-\(label.lowercased())-\(UUID().uuidString.prefix(8).lowercased())"
        let reply = try await send("PUT", "/\(name)")
        guard reply.status == 201 else {
            throw LiveCouchDBError("PUT /\(name) on \(maskedURL) answered \(reply.status): \(String(decoding: reply.body, as: UTF8.self))")
        }
        return name
    }

    /// Deletes database `name` (a missing one is fine).
    public func deleteDatabase(_ name: String) async {
        _ = try? await send("DELETE", "/\(name)")
    }

    /// Creates a database with a fresh name that starts with `label`, runs `body` with its
    /// name, and always awaits the database's deletion afterwards, also when `body` throws.
    public func withDatabase<T>(
        isolation: isolated (any Actor)? = #isolation, _ label: String, _ body: (String) async throws -> T
    ) async throws -> T {
        let name = try await makeDatabase(label)
        return try await deletingDatabase(name) { try await body(name) }
    }

    /// Runs `body`, then always awaits the deletion of database `name` (which `body` may have
    /// created), also when `body` throws.
    public func deletingDatabase<T>(
        isolation: isolated (any Actor)? = #isolation, _ name: String, after body: () async throws -> T
    ) async throws -> T {
        let result: T
        do {
            result = try await body()
        } catch {
            await deleteDatabase(name)
            throw error
        }
        await deleteDatabase(name)
        return result
    }

    /// The longest wait for a one-shot `POST /_replicate` reply, in seconds.
    static let replicationTimeout: TimeInterval = 600

    /// Sends `POST /_replicate` with `body` as the administrator and returns the raw reply.
    /// CouchDB answers a one-shot replication only when it is done, which on a loaded machine
    /// takes far longer than the quick requests' timeout, so this waits up to
    /// ``replicationTimeout``. It goes through AsyncHTTPClient, not `HTTPTestClient`: on Linux,
    /// URLSession sometimes never delivered this reply after a long wait (CouchDB had
    /// finished, the test timed out).
    public func sendReplication(_ body: JSONValue) async throws -> HTTPReply {
        var request = HTTPClientRequest(url: client.base.absoluteString + "/_replicate")
        request.method = .POST
        for (name, value) in auth { request.headers.add(name: name, value: value) }
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(Int64(Self.replicationTimeout)))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        var headers: [String: String] = [:]
        for field in response.headers { headers[field.name] = field.value }
        return HTTPReply(status: Int(response.status.code), headers: headers, body: Data(bytes.readableBytesView))
    }

    /// Runs CouchDB's own replicator once (`POST /_replicate`) from `source` to `target`
    /// (URLs, credentials included) and returns its reply.
    /// - Throws: ``LiveCouchDBError`` naming the replicator's reason when it fails.
    public func replicate(from source: String, to target: String, extra: JSONObject = [:]) async throws -> JSONObject {
        var body: JSONObject = ["source": .string(source), "target": .string(target)]
        body.merge(extra) { $1 }
        let reply = try await sendReplication(.object(body))
        let json = try? reply.json().objectValue
        guard reply.status == 200, let json, json["ok"] == true else {
            throw LiveCouchDBError("CouchDB's replicator from \(Self.masked(source)) to \(Self.masked(target)) answered \(reply.status): "
                + String(decoding: reply.body.prefix(2_000), as: UTF8.self))
        }
        return json
    }
}

/// Why the live CouchDB could not be used, in one line that names its URL (password masked).
public struct LiveCouchDBError: Error, CustomStringConvertible {
    /// The one-line reason.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
