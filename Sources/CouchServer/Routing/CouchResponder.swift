import CouchProtocol
import DocumentStore
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import DocumentFormat
import HTTPSupport

/// Answers every HTTP request of the server: checks the `Host`, authenticates from the
/// headers, reads the body (within the size limit and the server's body budget), routes by
/// CouchDB's URL scheme, and turns any thrown error into CouchDB's
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
        let secureCookies = state.servesTLS || SessionCookie.forwardedOverTLS(request.headers)
        var response: Response
        let reservation = BodyReservation(budget: state.bodyBudget)
        defer { reservation.releaseAll() }
        do {
            let couchRequest = try await prepare(request, reservation: reservation)
            response = try await dispatch(couchRequest)
            if let renewed = couchRequest.renewedCookie, response.headers[.setCookie] == nil {
                response.headers[.setCookie] = state.cookies.header(renewed, secure: secureCookies)
            }
        } catch {
            var couchError = CouchError.from(error)
            // 501 `not_implemented` names what is unsupported; no failure detail is in it.
            if couchError.status >= 500, couchError.status != 501, couchError != .bodyBudgetExhausted {
                // The detail (a SQLite message, a file path in the data directory) is for the
                // operator's log only; the client gets CouchDB's shape without it.
                logger.error("\(request.method) \(request.uri.path) failed: \(couchError)")
                couchError.reason = "The server could not complete the request; its log has the details."
            }
            var extra: [(HTTPField.Name, String)] = []
            if couchError.status == 401, CouchRoute(path: request.uri.path) == .serverEndpoint("_session") {
                extra.append((.setCookie, state.cookies.header("", secure: secureCookies)))
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

    /// Checks a request from its head (host, credentials, access, content type), and only
    /// then reads its body within the size limit and the server's body budget, counting the
    /// bytes it holds in `reservation` for the caller to release. Throws 400 for a foreign
    /// `Host`, 401 for bad or missing credentials, 415 for a body the endpoint cannot read,
    /// 413 for oversize bodies and 503 when the budget stays full.
    ///
    /// A request refused before its body is read leaves the body unread; Hummingbird drains
    /// it (discarding the bytes) before the connection's next request.
    private func prepare(_ request: Request, reservation: BodyReservation) async throws -> CouchRequest {
        guard let route = CouchRoute(path: request.uri.path) else {
            throw CouchError.badRequest("Malformed percent-encoding in the URL path")
        }
        try checkHost(request)
        let identity = try await identify(request.headers)
        let isDatabaseAdmin = try await authorize(identity, request.method, route)
        try Self.checkContentType(request.method, route, headers: request.headers)
        let body = try await readBody(request, reservation: reservation)
        var couchRequest = CouchRequest(
            method: request.method, route: route, query: QueryParameters(rawQuery: request.uri.query ?? ""), headers: request.headers,
            authority: request.head.authority, body: body, reservation: reservation)
        couchRequest.user = identity.user
        couchRequest.roles = identity.roles
        couchRequest.isDatabaseAdmin = isDatabaseAdmin
        couchRequest.authenticatedBy = identity.authenticatedBy
        couchRequest.renewedCookie = identity.renewedCookie
        return couchRequest
    }

    /// What a JSON body is expected to build when parsed, as a multiple of its length: about
    /// its text again for strings, plus the values' own storage. Reserved with the body; a
    /// parse that needs more takes it from the budget if it can.
    static let parseAllowanceFactor = 2

    /// Reads the whole body. A declared length is checked against the limit and reserved in
    /// the budget (waiting for room) before the first byte is read; a body without one
    /// reserves chunk by chunk and gets 503 rather than wait while holding part of the budget.
    private func readBody(_ request: Request, reservation: BodyReservation) async throws -> Data {
        let limit = state.configuration.maxRequestBodySize
        let budget = state.bodyBudget
        let declaredLength = request.headers[.contentLength].flatMap(Int.init)
        if let declaredLength {
            guard declaredLength <= limit, declaredLength <= budget.total else { throw CouchError.tooLarge }
            if declaredLength == 0 { return Data() }
            // A JSON body is admitted with room to parse it too (see `parseAllowanceFactor`),
            // so large bodies arriving together take turns instead of all being admitted and
            // then all refused for lack of room to parse.
            let parsing = HeaderParameters.mediaType(of: request.headers[.contentType] ?? "") == "application/json"
                ? min(declaredLength * Self.parseAllowanceFactor, budget.total - declaredLength) : 0
            guard await budget.reserve(declaredLength + parsing, timeout: state.configuration.bodyBudgetWait) else {
                throw CouchError.bodyBudgetExhausted
            }
            reservation.adopt(declaredLength)
            reservation.adoptForParsing(parsing)
        }
        var body = Data(capacity: declaredLength ?? 0)
        var chunks = request.body.makeAsyncIterator()
        while true {
            // A body cut short or badly chunked is the client's fault: 400, as CouchDB says.
            let next: ByteBuffer?
            do { next = try await chunks.next() } catch {
                throw CouchError.badRequest("The request body ended early or its chunked framing is malformed")
            }
            guard let chunk = next else { break }
            let size = chunk.readableBytes
            guard body.count + size <= limit else { throw CouchError.tooLarge }
            if declaredLength == nil || body.count + size > reservation.bytes {
                let extra = body.count + size - reservation.bytes
                guard budget.tryReserve(extra) else { throw CouchError.bodyBudgetExhausted }
                reservation.adopt(extra)
            }
            chunk.withUnsafeReadableBytes { body.append(contentsOf: $0) }
        }
        return body
    }

    private func dispatch(_ request: CouchRequest) async throws -> Response {
        try Self.checkReservedRoute(request)
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
        case .document(UserAccounts.databaseName, let id):
            let database = try await state.registry.database(UserAccounts.databaseName)
            return try await database.lifecycle.withLease { try await accountDocument(id, database, request) }
        case .document(let name, let id):
            let database = try await state.registry.database(name)
            return try await database.lifecycle.withLease { try await document(id, database, request) }
        case .attachment(let name, let id, let attachment):
            let database = try await state.registry.database(name)
            if id.hasPrefix("_design/"), attachment == "_info" {
                return try await database.lifecycle.withLease { try await designInfo(id, database, request) }
            }
            // Design document functions are JavaScript, which this server never runs.
            if id.hasPrefix("_design/"), let function = DesignFunction(designPath: attachment) {
                let design = try await database.lifecycle.withLease {
                    try await database.store.withReader { try $0.get(id: id)?.body }
                }
                throw function.error(designDocument: design, designPath: attachment)
            }
            return try await database.lifecycle.withLease { try await attachmentRequest(id, attachment, database, request) }
        }
    }

    /// Throws 405 unless the request's method is one of `methods`.
    static func allow(_ request: CouchRequest, _ methods: [HTTPRequest.Method]) throws {
        if request.method == .head, methods.contains(.get) { return }
        guard methods.contains(request.method) else { throw CouchError.methodNotAllowed }
    }

    /// 405 `method_not_allowed` with CouchDB's own reason ("Only POST allowed") unless the
    /// request uses one of `methods`, for the endpoints whose refusal the differential tests
    /// compare word for word.
    static func allowOnly(_ request: CouchRequest, _ methods: [HTTPRequest.Method]) throws {
        guard !methods.contains(request.method) else { return }
        let names = methods.map(\.rawValue).joined(separator: ",")
        throw CouchError(status: 405, error: "method_not_allowed", reason: "Only \(names) allowed")
    }

    private func databaseEndpoint(_ endpoint: String, _ database: Database, _ request: CouchRequest) async throws -> Response {
        switch endpoint {
        case "_all_docs": return try await allDocs(database, request)
        case "_changes": return try await changes(database, request)
        case "_revs_diff": return try await revsDiff(database, request)
        case "_missing_revs": return try await missingRevs(database, request)
        case "_purge": return try await purge(database, request)
        case "_bulk_get": return try await bulkGet(database, request)
        case "_bulk_docs": return try await bulkDocs(database, request)
        case "_ensure_full_commit":
            try Self.allow(request, [.post])
            return CouchReply.json(201, ["ok": true, "instance_start_time": .string(database.instanceStartTime)])
        case "_security": return try await securityRequest(database, request)
        case "_find": return try await find(database, request)
        case "_index": return try await index(database, request)
        case "_explain": return try await explain(database, request)
        case "_compact":
            try Self.allow(request, [.post])
            try await database.store.withWriter { store in try store.compact() }
            return CouchReply.json(202, CouchReply.ok)
        case "_view_cleanup":
            // No view index files to remove: this server builds none.
            try Self.allowOnly(request, [.post])
            return CouchReply.json(202, CouchReply.ok)
        case let path where path.hasPrefix("_compact/"):
            // A design document's view index: this server builds none, so there is nothing to
            // compact, but as in CouchDB the design document must exist.
            try Self.allowOnly(request, [.post])
            let id = "_design/" + path.dropFirst("_compact/".count)
            guard try await database.store.withReader({ try $0.get(id: id) }) != nil else { throw CouchError.missing }
            return CouchReply.json(202, CouchReply.ok)
        case let path where path.hasPrefix("_index/"):
            return try await deleteIndex(path.split(separator: "/").dropFirst().map(String.init), database, request)
        default:
            // Anything else starting with "_" would be a document ID, and those are reserved.
            throw CouchError.illegalDocID
        }
    }
}
