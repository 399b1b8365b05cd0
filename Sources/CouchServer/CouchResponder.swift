import AsyncBridge
import CouchProtocol
import DocumentStore
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Answers every HTTP request of the server: reads the body (within the size limit),
/// authenticates, routes by CouchDB's URL scheme, and turns any thrown error into CouchDB's
/// error reply. Validation happens before any write, so a refused request changes nothing.
struct CouchResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let state: ServerState
    let logger: Logger

    /// CORS for origins the configuration allows: Hummingbird's middleware answers their
    /// preflights and labels their responses, echoing the origin so credentials work.
    private static let cors = CORSMiddleware<BasicRequestContext>(
        allowOrigin: .originBased,
        allowHeaders: [.accept, .authorization, .contentType, .origin, .referer],
        allowMethods: [.get, .put, .post, .head, .delete],
        allowCredentials: true,
        maxAge: .seconds(600))

    /// The response headers a browser script may read (CouchDB's list).
    private static let exposedHeaders = "content-type, cache-control, etag, server, location"

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        guard originAllowed(request) else { return try await answer(request) }
        var response = try await Self.cors.handle(request, context: context) { request, _ in try await answer(request) }
        if request.method != .options { response.headers[.accessControlExposeHeaders] = Self.exposedHeaders }
        return response
    }

    /// The reply to one request, any error turned into CouchDB's error reply.
    private func answer(_ request: Request) async throws -> Response {
        let isHead = request.method == .head
        var response: Response
        do {
            let couchRequest = try await prepare(request)
            response = try await dispatch(couchRequest)
            if let renewed = couchRequest.renewedCookie, response.headers[.setCookie] == nil {
                response.headers[.setCookie] = state.cookies.header(renewed)
            }
        } catch {
            var couchError = CouchError.from(error)
            if couchError.status >= 500 {
                // The detail (a SQLite message, a file path in the data directory) is for the
                // operator's log only; the client gets CouchDB's shape without it.
                logger.error("\(request.method) \(request.uri.path) failed: \(couchError)")
                couchError.reason = "The server could not complete the request; its log has the details."
            }
            var extra: [(HTTPField.Name, String)] = []
            if couchError.status == 401, CouchRoute(path: request.uri.path) == .serverEndpoint("_session") {
                extra.append((.setCookie, state.cookies.header("")))
            }
            response = CouchReply.error(couchError, headers: extra)
        }
        return isHead ? response.createHeadResponse() : response
    }

    /// Whether the request comes from a browser origin the configuration allows CORS for.
    private func originAllowed(_ request: Request) -> Bool {
        let allowed = state.configuration.corsOrigins
        guard !allowed.isEmpty, let origin = request.headers[.origin], origin != "null" else { return false }
        return allowed.contains("*") || allowed.contains(origin)
    }

    /// Reads and authenticates a request; throws 413 for oversize bodies, 401 for bad
    /// credentials or anonymous writes.
    private func prepare(_ request: Request) async throws -> CouchRequest {
        guard let route = CouchRoute(path: request.uri.path) else {
            throw CouchError.badRequest("Malformed percent-encoding in the URL path")
        }
        // Read the body up to the limit; past it, keep reading but drop the bytes, so the
        // client gets its 413 instead of a reset connection.
        let limit = state.configuration.maxRequestBodySize
        let declaredLength = request.headers[.contentLength].flatMap(Int.init)
        var body = Data(capacity: min(declaredLength ?? 0, limit))
        var tooLarge = declaredLength.map { $0 > limit } ?? false
        for try await chunk in request.body {
            if tooLarge { continue }
            if body.count + chunk.readableBytes > limit {
                tooLarge = true
                body = Data()
                continue
            }
            chunk.withUnsafeReadableBytes { body.append(contentsOf: $0) }
        }
        if tooLarge { throw CouchError.tooLarge }
        var query = [String: String]()
        for (key, value) in request.uri.queryParameters {
            query[String(key).removingPercentEncoding ?? String(key)] = String(value)
        }
        var couchRequest = CouchRequest(
            method: request.method, route: route, query: QueryParameters(query), headers: request.headers,
            authority: request.head.authority, body: body)
        try authenticate(&couchRequest)
        return couchRequest
    }

    /// Sets the request's user from basic auth or the session cookie, and refuses writes that
    /// need a user and have none.
    private func authenticate(_ request: inout CouchRequest) throws {
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "basic" {
                guard let decoded = Data(base64Encoded: String(parts[1])).flatMap({ String(data: $0, encoding: .utf8) }),
                      let colon = decoded.firstIndex(of: ":"),
                      let credentials = state.configuration.credentials,
                      credentials.matches(user: String(decoded[..<colon]), password: String(decoded[decoded.index(after: colon)...]))
                else { throw CouchError.wrongCredentials }
                request.user = credentials.user
                request.authenticatedBy = "default"
            }
        }
        if request.user == nil, let session = Cookies(from: request.headers[values: .cookie])["AuthSession"]?.value,
           let verified = state.cookies.verify(session), verified.user == state.configuration.credentials?.user {
            request.user = verified.user
            request.authenticatedBy = "cookie"
            // Like CouchDB, renew a cookie past half its lifetime so long replications keep going.
            if Date().timeIntervalSince(verified.issued) > Double(state.cookies.lifetime) / 2 {
                request.renewedCookie = state.cookies.issue(user: verified.user)
            }
        }
        if request.user == nil, !state.configuration.allowAnonymousWrites, Self.isWrite(request) {
            switch request.route {
            case .root, .serverEndpoint, .database: throw CouchError.notServerAdmin
            default: throw CouchError.notAuthorized
            }
        }
    }

    /// Whether a request changes data (and so needs a user unless anonymous writes are allowed).
    static func isWrite(_ request: CouchRequest) -> Bool {
        switch request.method {
        case .get, .head, .options: return false
        case .post:
            switch request.route {
            case .serverEndpoint("_session"): return false
            case .databaseEndpoint(_, let endpoint):
                return !["_all_docs", "_revs_diff", "_bulk_get", "_find", "_changes", "_explain", "_ensure_full_commit"]
                    .contains(endpoint)
            default: return true
            }
        case .delete where request.route == .serverEndpoint("_session"): return false
        default: return true
        }
    }

    private func dispatch(_ request: CouchRequest) async throws -> Response {
        switch request.route {
        case .root:
            try Self.allow(request, [.get])
            return CouchReply.json(200, serverInfo)
        case .serverEndpoint(let endpoint):
            return try await serverEndpoint(endpoint, request)
        case .database(let name):
            return try await databaseRequest(name, request)
        case .databaseEndpoint(let name, let endpoint):
            let database = try await state.registry.database(name)
            return try await database.lifecycle.withLease { try await databaseEndpoint(endpoint, database, request) }
        case .localDocument(let name, let id):
            let database = try await state.registry.database(name)
            return try await database.lifecycle.withLease { try await localDocument(id, database, request) }
        case .document(let name, let id):
            let database = try await state.registry.database(name)
            return try await database.lifecycle.withLease { try await document(id, database, request) }
        case .attachment(let name, let id, let attachment):
            let database = try await state.registry.database(name)
            return try await database.lifecycle.withLease { try await attachmentRequest(id, attachment, database, request) }
        }
    }

    /// Throws 405 unless the request's method is one of `methods`.
    static func allow(_ request: CouchRequest, _ methods: [HTTPRequest.Method]) throws {
        if request.method == .head, methods.contains(.get) { return }
        guard methods.contains(request.method) else { throw CouchError.methodNotAllowed }
    }

    private func databaseEndpoint(_ endpoint: String, _ database: Database, _ request: CouchRequest) async throws -> Response {
        switch endpoint {
        case "_all_docs": return try await allDocs(database, request)
        case "_changes": return try await changes(database, request)
        case "_revs_diff": return try await revsDiff(database, request)
        case "_bulk_get": return try await bulkGet(database, request)
        case "_bulk_docs": return try await bulkDocs(database, request)
        case "_ensure_full_commit":
            try Self.allow(request, [.post])
            return CouchReply.json(201, ["ok": true, "instance_start_time": .string(database.instanceStartTime)])
        case "_find": return try await find(database, request)
        case "_index": return try await index(database, request)
        case "_compact":
            try Self.allow(request, [.post])
            try await BlockingWork.run { try database.store.compact() }
            return CouchReply.json(202, CouchReply.ok)
        default:
            // Anything else starting with "_" would be a document ID, and those are reserved.
            throw CouchError.illegalDocID
        }
    }
}
