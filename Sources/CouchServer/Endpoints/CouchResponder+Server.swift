import CouchProtocol
import DocumentStore
import Foundation
import HTTPTypes
import Hummingbird
import DocumentFormat

/// Server-level endpoints: `GET /`, `/_all_dbs`, `/_session`, `/_up`, `/_uuids`; the others
/// (`/_db_updates`, replication) dispatch from here to their own files.
extension CouchResponder {
    /// The welcome object of `GET /`.
    var serverInfo: JSONValue {
        [
            "couchdb": "Welcome",
            "version": "3.4.3",
            "git_sha": "recipes",
            "uuid": .string(state.uuid),
            "features": [],
            "vendor": ["name": "Recipes"],
        ]
    }

    func serverEndpoint(_ endpoint: String, _ request: CouchRequest) async throws -> Response {
        switch endpoint {
        case "_all_dbs":
            try Self.allow(request, [.get])
            let names = try await state.registry.names()
            return CouchReply.json(200, .array(names.map { .string($0) }))
        case "_session":
            return try await session(request)
        case "_up":
            try Self.allow(request, [.get])
            return CouchReply.json(200, ["status": "ok"])
        case "_replicate":
            return try await replicate(request)
        case "_db_updates":
            return try await databaseUpdates(request)
        case "_active_tasks":
            return try activeTasks(request)
        case let path where path == "_scheduler" || path.hasPrefix("_scheduler/"):
            return try scheduler(path, request)
        case "_uuids":
            try Self.allow(request, [.get])
            let count = min(try request.query.int("count") ?? 1, 1000)
            let uuids = (0..<count).map { _ in
                JSONValue.string(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())
            }
            return CouchReply.json(200, ["uuids": .array(uuids)])
        default:
            throw CouchError(status: 400, error: "illegal_database_name", reason: "Name: '\(endpoint)'. Only lowercase characters (a-z), digits (0-9), and any of the characters _, $, (, ), +, -, and / are allowed. Must begin with a letter.")
        }
    }

    /// `GET|POST|DELETE /_session`: cookie login as CouchDB does it (JSON or form body).
    private func session(_ request: CouchRequest) async throws -> Response {
        switch request.method {
        case .get, .head:
            let roles = JSONValue.array(request.roles.map { .string($0) })
            var info: JSONObject = ["authentication_handlers": ["cookie", "default"]]
            if let by = request.authenticatedBy { info["authenticated"] = .string(by) }
            return CouchReply.json(200, [
                "ok": true,
                "userCtx": ["name": request.user.map { .string($0) } ?? .null, "roles": roles],
                "info": .object(info),
            ])
        case .post:
            let (name, password) = try await loginFields(request)
            let roles: [String]
            if let credentials = state.configuration.credentials, credentials.matches(user: name, password: password) {
                roles = ["_admin"]
            } else if let accountRoles = await state.accounts.authenticate(name: name, password: password) {
                roles = accountRoles
            } else {
                throw CouchError.wrongCredentials
            }
            let cookie = state.cookies.issue(user: name)
            return CouchReply.json(
                200, ["ok": true, "name": .string(name), "roles": .array(roles.map { .string($0) })],
                headers: [(.setCookie, state.cookies.header(cookie, secure: state.servesTLS || SessionCookie.forwardedOverTLS(request.headers)))])
        case .delete:
            return CouchReply.json(200, CouchReply.ok, headers: [(.setCookie, state.cookies.header("", secure: state.servesTLS || SessionCookie.forwardedOverTLS(request.headers)))])
        default:
            throw CouchError.methodNotAllowed
        }
    }

    /// The `name` and `password` of a login body, JSON or `application/x-www-form-urlencoded`.
    private func loginFields(_ request: CouchRequest) async throws -> (String, String) {
        if request.mediaType == "application/x-www-form-urlencoded" {
            struct Login: Decodable { var name: String; var password: String }
            guard let text = String(data: request.body, encoding: .utf8),
                  let login = try? URLEncodedFormDecoder().decode(Login.self, from: text)
            else { throw CouchError.badRequest("Login form needs name and password") }
            return (login.name, login.password)
        }
        let object = try await request.jsonObjectBody()
        guard let name = object["name"]?.stringValue, let password = object["password"]?.stringValue else {
            throw CouchError.badRequest("Login body needs name and password strings")
        }
        return (name, password)
    }
}
