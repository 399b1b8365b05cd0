import CouchProtocol
import DocumentStore
import Foundation
import HTTPTypes
import Hummingbird
import DocumentFormat
import HTTPSupport

/// A request as the handlers see it: method, route, query, headers, the whole body, and the
/// authenticated user (if any).
struct CouchRequest: Sendable {
    let method: HTTPRequest.Method
    let route: CouchRoute
    let query: QueryParameters
    let headers: HTTPFields
    let body: Data
    /// The `Host` the client addressed (`127.0.0.1:5984`), if it sent one.
    let authority: String?
    /// The logged-in user, when the request carried valid credentials.
    var user: String?
    /// The user's roles (`_admin` for the server administrator).
    var roles: [String] = []
    /// Whether the user administers the database the request is for (or the server).
    var isDatabaseAdmin = false
    /// How the user was authenticated: `"cookie"`, `"default"` (basic) or `nil`.
    var authenticatedBy: String?
    /// A fresh session cookie to send back, when the one presented is past half its lifetime.
    var renewedCookie: String?
    /// What this request holds of the server's body budget; parsing its JSON adds to it.
    let reservation: BodyReservation

    init(method: HTTPRequest.Method, route: CouchRoute, query: QueryParameters, headers: HTTPFields,
         authority: String?, body: Data, reservation: BodyReservation) {
        self.reservation = reservation
        self.authority = authority
        self.method = method
        self.route = route
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The `Content-Type` header's media type, lowercased (`application/json`).
    var mediaType: String { HeaderParameters.mediaType(of: headers[.contentType] ?? "") }

    /// Whether the client's `Accept` header lists `mediaType` explicitly.
    func accepts(_ mediaType: String) -> Bool {
        headers[values: .accept].contains { $0.lowercased().contains(mediaType) }
    }

    /// The body as a JSON value; 400 `bad_request` when it is not JSON.
    func jsonBody() async throws -> JSONValue { try await json(from: body) }

    /// The body as a JSON object; 400 when it is not one.
    func jsonObjectBody() async throws -> JSONObject { try await jsonObject(from: body) }

    /// Parses request JSON (a body, a multipart part), holding the memory it builds within
    /// the body budget (413 or 503 past it); anything malformed is CouchDB's 400 `bad_request`.
    func json(from data: Data) async throws -> JSONValue {
        guard !data.isEmpty else { throw CouchError.invalidJSON }
        // Parsing is CPU work, so it runs on the task's own thread; the server's sockets are
        // served by NIO's event loops meanwhile, which this does not hold.
        do {
            return try JSONValue.parse(data, meteringEvery: 1 << 20) { try reservation.grow(by: $0) }
        } catch let error as CouchError {
            throw error
        } catch {
            throw CouchError.invalidJSON
        }
    }

    /// Parses request JSON that must be an object.
    func jsonObject(from data: Data) async throws -> JSONObject {
        guard case .object(let object) = try await json(from: data) else {
            throw CouchError.badRequest("Request body must be a JSON object")
        }
        return object
    }

    /// Base URL the client used (`http://host:port`), for `Location` headers.
    var baseURL: String {
        "http://" + (authority ?? "127.0.0.1")
    }
}
