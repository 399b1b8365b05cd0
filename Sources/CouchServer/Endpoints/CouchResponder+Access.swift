import CouchProtocol
import DocumentStore
import Foundation
import HTTPTypes
import Hummingbird
import HTTPSupport

/// What is checked from a request's head before its body is read: the `Host` it names, who
/// it comes from, whether that user may make it, and whether its `Content-Type` is one the
/// endpoint reads. A refusal here costs no body memory.
extension CouchResponder {
    /// 400 unless the `Host` header names this server.
    func checkHost(_ request: Request) throws {
        guard state.hosts.accepts(request.head.authority, port: state.listeningPort) else {
            throw CouchError.badRequest(
                "Host '\(request.head.authority ?? "")' is not a name of this server; start it with --public-host to add one.")
        }
    }

    /// The user from basic auth or the session cookie, with its roles: the server
    /// administrator (`_admin`) or an account of `_users`; 401 for wrong basic credentials.
    func identify(_ headers: HTTPFields) async throws -> RequestIdentity {
        var identity = RequestIdentity()
        if let authorization = headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "basic" {
                guard let decoded = Data(base64Encoded: String(parts[1])).flatMap({ String(data: $0, encoding: .utf8) }),
                      let colon = decoded.firstIndex(of: ":")
                else { throw CouchError.wrongCredentials }
                let name = String(decoded[..<colon])
                let password = String(decoded[decoded.index(after: colon)...])
                if let credentials = state.configuration.credentials, credentials.matches(user: name, password: password) {
                    identity.user = credentials.user
                    identity.roles = ["_admin"]
                } else if let roles = await state.accounts.authenticate(name: name, password: password) {
                    identity.user = name
                    identity.roles = roles
                } else {
                    throw CouchError.wrongCredentials
                }
                identity.authenticatedBy = "default"
            }
        }
        if identity.user == nil, let session = Cookies(from: headers[values: .cookie])["AuthSession"]?.value,
           let verified = state.cookies.verify(session) {
            if verified.user == state.configuration.credentials?.user {
                identity.roles = ["_admin"]
            } else if let roles = await state.accounts.roles(of: verified.user) {
                identity.roles = roles
            } else {
                return identity
            }
            identity.user = verified.user
            identity.authenticatedBy = "cookie"
            // Like CouchDB, renew a cookie past half its lifetime so long replications keep going.
            if state.cookies.isDueForRenewal(issued: verified.issued) {
                identity.renewedCookie = state.cookies.issue(user: verified.user)
            }
        }
        return identity
    }

    /// 401 or 403 unless `identity` may make this request; returns whether it administers the
    /// database the request is for (the server administrator administers every one).
    ///
    /// As CouchDB 3: the server administrator may do anything. On a database, its
    /// `_security` admins may do anything but create or delete it; when it lists members,
    /// only they (and its admins) may read and write it, and everyone else gets 401 without
    /// credentials or 403 with them; when it lists none, the server's `AnonymousAccess`
    /// decides for everyone who is not an admin. Only admins change `_security`, design
    /// documents and indexes, compact or purge. `_users` has rules of its own
    /// (`authorizeAccounts`); `_replicator` and `_global_changes` are the administrator's.
    func authorize(_ identity: RequestIdentity, _ method: HTTPRequest.Method, _ route: CouchRoute) async throws -> Bool {
        if identity.isServerAdmin { return true }
        if Self.isPublic(method, route) { return false }
        let anonymous = state.configuration.anonymousAccess
        guard let name = route.databaseName else {
            try authorizeAnonymous(method, route)
            return false
        }
        if name == UserAccounts.databaseName {
            if anonymous == .all { return true }
            try Self.authorizeAccounts(identity, method, route)
            return false
        }
        // `_replicator` documents start replications with the credentials they carry:
        // only the server administrator reads or writes them (CouchDB 3.4's default
        // `_security` for the database).
        if name == ReplicatorDatabaseWatcher.databaseName {
            if anonymous == .all { return true }
            throw identity.user == nil ? CouchError.notAuthorized : Self.notAllowed
        }
        // `_global_changes` names every database and when it changed: as in CouchDB, only
        // the server administrator reads it, and anyone else gets 401 whoever they are.
        if name == GlobalChangesService.databaseName {
            if anonymous == .all { return true }
            throw CouchError.notServerAdmin
        }
        let security = await security(of: name)
        if security.members.isEmpty, anonymous == .all { return true }
        if case .database = route, method == .put || method == .delete { throw CouchError.notServerAdmin }
        if security.admins.includes(name: identity.user, roles: identity.roles) { return true }
        if !security.members.isEmpty {
            guard security.members.includes(name: identity.user, roles: identity.roles) else {
                throw identity.user == nil ? CouchError.notAuthorized : Self.notAllowed
            }
        } else if identity.user == nil {
            try authorizeAnonymous(method, route)
        } else if anonymous != .reads || Self.isWrite(method, route) {
            throw Self.notAllowed
        }
        try Self.checkNotAdminOnly(method, route)
        return false
    }

    /// 403 `forbidden` for an authenticated user the database does not admit.
    static let notAllowed = CouchError(status: 403, error: "forbidden", reason: "You are not allowed to access this db.")

    /// Throws CouchDB's refusal when a request only a database's admins may make comes from
    /// someone else: writing `_security`, compacting, cleaning up views or purging (401), writing a design document or
    /// an index (403).
    static func checkNotAdminOnly(_ method: HTTPRequest.Method, _ route: CouchRoute) throws {
        let designRefusal = CouchError(status: 403, error: "forbidden", reason: "You are not a db or server admin.")
        switch route {
        case .databaseEndpoint(_, "_security") where method != .get && method != .head:
            throw CouchError(status: 401, error: "unauthorized", reason: "You are not a db or server admin.")
        case .databaseEndpoint(_, let endpoint) where endpoint == "_compact" || endpoint.hasPrefix("_compact/") || endpoint == "_view_cleanup":
            throw CouchError(status: 401, error: "unauthorized", reason: "You are not a server or db admin.")
        case .databaseEndpoint(_, "_purge"):
            throw CouchError(status: 401, error: "unauthorized", reason: "You are not a db or server admin.")
        case .databaseEndpoint(_, let endpoint) where endpoint == "_index" || endpoint.hasPrefix("_index/"):
            if isWrite(method, route) { throw designRefusal }
        case .document(_, let id), .attachment(_, let id, _):
            if id.hasPrefix("_design/"), isWrite(method, route) { throw designRefusal }
        default:
            break
        }
    }

    /// What someone other than the server administrator may do in `_users`: read, update
    /// and delete their own account document, nothing else (401 without credentials, 403
    /// with them). Creating accounts is for the administrator.
    static func authorizeAccounts(_ identity: RequestIdentity, _ method: HTTPRequest.Method, _ route: CouchRoute) throws {
        guard let user = identity.user else { throw CouchError.notAuthorized }
        if case .document(_, let id) = route, id == UserDocument.idPrefix + user,
           [.get, .head, .put, .delete].contains(method) {
            return
        }
        throw notAllowed
    }

    /// The `_security` object of the database `name`; empty when it does not exist.
    func security(of name: String) async -> SecurityObject {
        guard let database = try? await state.registry.database(name) else { return SecurityObject() }
        return (try? await database.store.withReader { store in try SecurityObject.load(from: store) }) ?? SecurityObject()
    }

    /// 401 unless a request without a user may do this under the configured anonymous access.
    func authorizeAnonymous(_ method: HTTPRequest.Method, _ route: CouchRoute) throws {
        if Self.isPublic(method, route) { return }
        let write = Self.isWrite(method, route)
        switch state.configuration.anonymousAccess {
        case .all: return
        case .reads where !write: return
        case .reads, .none:
            switch route {
            case .root, .serverEndpoint: throw CouchError.notServerAdmin
            case .database where write: throw CouchError.notServerAdmin
            default: throw CouchError.notAuthorized
            }
        }
    }

    /// The endpoints everyone may call: the welcome, `_up`, and logging in and out.
    static func isPublic(_ method: HTTPRequest.Method, _ route: CouchRoute) -> Bool {
        switch route {
        case .serverEndpoint("_session"): return true
        case .root, .serverEndpoint("_up"): return [.get, .head, .options].contains(method)
        default: return false
        }
    }

    /// Whether a request changes data (and so needs a user unless anonymous writes are allowed).
    static func isWrite(_ method: HTTPRequest.Method, _ route: CouchRoute) -> Bool {
        switch method {
        case .get, .head, .options: return false
        case .post:
            switch route {
            case .serverEndpoint("_session"): return false
            case .databaseEndpoint(_, let endpoint):
                return !["_all_docs", "_revs_diff", "_missing_revs", "_bulk_get", "_find", "_changes", "_explain", "_ensure_full_commit"]
                    .contains(endpoint)
            default: return true
            }
        case .delete where route == .serverEndpoint("_session"): return false
        default: return true
        }
    }

    /// 415 `bad_content_type` when a request to an endpoint that reads JSON carries another
    /// media type, so a cross-site form (`text/plain`, form data) cannot reach it.
    ///
    /// As in CouchDB: every POST reads JSON only (`POST /_session` also takes a urlencoded
    /// form). A request with no `Content-Type` passes only when it has no body, but for
    /// `POST /{db}/_compact`, which CouchDB refuses without `application/json` whatever the
    /// body. PUTs are not checked: CouchDB parses the body of a document, `_local` document or
    /// `_security` PUT as JSON whatever its type (a document PUT may be `multipart/related`),
    /// and a cross-site form cannot send a PUT.
    static func checkContentType(_ method: HTTPRequest.Method, _ route: CouchRoute, headers: HTTPFields) throws {
        var accepted = ["application/json"]
        if method == .post, case .databaseEndpoint(_, let endpoint) = route,
           endpoint == "_compact" || endpoint.hasPrefix("_compact/") {
            guard let contentType = headers[.contentType],
                  HeaderParameters.mediaType(of: contentType) == "application/json" else { throw CouchError.badContentType }
            return
        }
        switch (method, route) {
        case (.post, .serverEndpoint("_session")): accepted.append("application/x-www-form-urlencoded")
        case (.post, _): break
        default: return
        }
        guard let contentType = headers[.contentType] else {
            let declared = headers[.contentLength].flatMap(Int.init)
            if declared == 0 || (declared == nil && headers[.transferEncoding] == nil) { return }
            throw CouchError.badContentType
        }
        guard accepted.contains(HeaderParameters.mediaType(of: contentType)) else { throw CouchError.badContentType }
    }

    /// 400 `bad_request` when a request lists more than the configured number of entries.
    func checkEntryCount(_ count: Int, of what: String) throws {
        try Self.checkEntryCount(count, of: what, limit: state.configuration.maxEntriesPerRequest)
    }

    /// 400 `bad_request` when a request lists more than `limit` entries.
    static func checkEntryCount(_ count: Int, of what: String, limit: Int) throws {
        guard count <= limit else {
            throw CouchError.badRequest("Too many \(what): \(count); at most \(limit) per request.")
        }
    }
}
