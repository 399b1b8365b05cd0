import CouchProtocol
import Foundation
import HTTPTypes
import Hummingbird

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

    /// The user from basic auth or the session cookie; 401 for wrong basic credentials.
    func identify(_ headers: HTTPFields) throws -> RequestIdentity {
        var identity = RequestIdentity()
        if let authorization = headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "basic" {
                guard let decoded = Data(base64Encoded: String(parts[1])).flatMap({ String(data: $0, encoding: .utf8) }),
                      let colon = decoded.firstIndex(of: ":"),
                      let credentials = state.configuration.credentials,
                      credentials.matches(user: String(decoded[..<colon]), password: String(decoded[decoded.index(after: colon)...]))
                else { throw CouchError.wrongCredentials }
                identity.user = credentials.user
                identity.authenticatedBy = "default"
            }
        }
        if identity.user == nil, let session = Cookies(from: headers[values: .cookie])["AuthSession"]?.value,
           let verified = state.cookies.verify(session), verified.user == state.configuration.credentials?.user {
            identity.user = verified.user
            identity.authenticatedBy = "cookie"
            // Like CouchDB, renew a cookie past half its lifetime so long replications keep going.
            if Date().timeIntervalSince(verified.issued) > Double(state.cookies.lifetime) / 2 {
                identity.renewedCookie = state.cookies.issue(user: verified.user)
            }
        }
        return identity
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
                return !["_all_docs", "_revs_diff", "_bulk_get", "_find", "_changes", "_explain", "_ensure_full_commit"]
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
    /// As in CouchDB: every POST and the PUT of a document or `_local` document read JSON;
    /// a document PUT may also be `multipart/related`, and `POST /_session` a urlencoded
    /// form. A request with no `Content-Type` passes only when it has no body.
    static func checkContentType(_ method: HTTPRequest.Method, _ route: CouchRoute, headers: HTTPFields) throws {
        var accepted = ["application/json"]
        switch (method, route) {
        case (.post, .serverEndpoint("_session")): accepted.append("application/x-www-form-urlencoded")
        case (.post, _), (.put, .localDocument): break
        case (.put, .document): accepted.append("multipart/related")
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
