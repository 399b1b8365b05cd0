import CouchProtocol
import DocumentStore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import Synchronization
import DocumentFormat

/// One HTTP reply: status, headers (lower-cased names) and the whole body, with the request
/// it answers (`GET /db/_changes`), so an error about the reply can name the endpoint.
struct HTTPReply: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data
    var endpoint: String = ""
}

/// Sends requests to one CouchDB server: authentication (basic or cookie session), the
/// `User-Agent`, timeouts, and retries with exponential backoff on connection errors,
/// timeouts and 5xx replies. Never logs or reports a password.
final class CouchHTTPClient: Sendable {
    let url: CouchURL
    let options: CouchClientOptions
    private let session: URLSession
    private let logger: Logger
    private let user: String?
    private let password: String?
    private let cookie = Mutex<String?>(nil)

    init(url: CouchURL, options: CouchClientOptions, logger: Logger) {
        self.url = url
        self.options = options
        self.logger = logger
        self.user = options.user ?? url.user
        self.password = options.password ?? url.password
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = options.requestTimeout
        configuration.timeoutIntervalForResource = max(options.requestTimeout * 10, 300)
        configuration.httpMaximumConnectionsPerHost = max(1, options.maxConnections)
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// The URL of a path under the database (`segments` already encoded) with a query.
    func databaseURL(_ encodedSegments: [String] = [], query: [(String, String)] = []) -> URL {
        var text = url.serverURL.absoluteString + "/" + CouchURL.encodeSegment(url.databaseName)
        for segment in encodedSegments { text += "/" + segment }
        if !query.isEmpty {
            text += "?" + query.map { "\($0.0)=\(CouchURL.encodeQueryValue($0.1))" }.joined(separator: "&")
        }
        return URL(string: text)!
    }

    /// Sends a request, retrying transient failures; returns the final reply whatever its
    /// status (callers map statuses to errors). Throws on connection failures after retries.
    /// With `throughFile`, the reply body is received into a temporary file and mapped from
    /// it, so a large body (attachments) is not held twice while it arrives. With `bodyFile`,
    /// the request body is read from that file as it is sent, instead of from `body`.
    /// `retries` overrides `CouchClientOptions.maxRetries` (0: one attempt) and `timeout` its
    /// request timeout.
    func send(_ method: String, _ target: URL, body: Data? = nil, bodyFile: URL? = nil, contentType: String? = nil,
              accept: String = "application/json", throughFile: Bool = false,
              retries: Int? = nil, timeout: TimeInterval? = nil) async throws -> HTTPReply {
        let maxRetries = retries ?? options.maxRetries
        var attempt = 0
        var renewedSession = false
        while true {
            try checkCancelled()
            if options.authentication == .cookieSession, user != nil, cookie.withLock({ $0 }) == nil {
                try await login()
            }
            var request = URLRequest(url: target)
            request.httpMethod = method
            request.timeoutInterval = timeout ?? options.requestTimeout
            request.setValue(UserAgent.value, forHTTPHeaderField: "User-Agent")
            request.setValue(accept, forHTTPHeaderField: "Accept")
            if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
            applyAuthentication(to: &request)
            request.httpBody = body
            if let bodyFile, let size = (try? FileManager.default.attributesOfItem(atPath: bodyFile.path))?[.size] as? NSNumber {
                request.setValue(size.stringValue, forHTTPHeaderField: "Content-Length")
            }
            let started = Date()
            do {
                let (data, response) = if let bodyFile {
                    try await session.cancellableUpload(for: request, fromFile: bodyFile)
                } else if throughFile {
                    try await session.cancellableDownload(for: request)
                } else {
                    try await session.cancellableData(for: request)
                }
                guard let http = response as? HTTPURLResponse else {
                    throw ReplicationError.malformedReply(url: url.description, detail: "not an HTTP reply")
                }
                var headers: [String: String] = [:]
                for (key, value) in http.allHeaderFields {
                    if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
                }
                let reply = HTTPReply(status: http.statusCode, headers: headers, body: data, endpoint: Self.endpoint(method, target))
                logger.debug("\(method) \(target.path) -> \(http.statusCode) (\(data.count) bytes, \(Int(Date().timeIntervalSince(started) * 1000)) ms)")
                if reply.status == 401, options.authentication == .cookieSession, user != nil, !renewedSession {
                    renewedSession = true
                    cookie.withLock { $0 = nil }
                    continue
                }
                if reply.status >= 500, attempt < maxRetries {
                    logger.warning("\(method) \(url.serverURL.absoluteString)\(target.path.dropFirst(url.serverURL.path.count)): server answered \(reply.status); retrying")
                    try await backoff(attempt)
                    attempt += 1
                    continue
                }
                return reply
            } catch let error as ReplicationError {
                throw error
            } catch is CancellationError {
                throw ReplicationError.cancelled
            } catch let error as URLError {
                if error.code == .cancelled { throw ReplicationError.cancelled }
                let transient = CouchHTTPClient.isTransient(error)
                if transient, attempt < maxRetries {
                    logger.warning("\(method) \(url.description): \(error.code.rawValue) \(CredentialMask.masked(error.localizedDescription)); retrying")
                    try await backoff(attempt)
                    attempt += 1
                    continue
                }
                if error.code == .timedOut { throw ReplicationError.timedOut(url: url.description) }
                throw ReplicationError.unreachable(url: url.description,
                                                   detail: "\(CredentialMask.masked(error.localizedDescription)) [URLError \(error.code.rawValue)]")
            } catch {
                throw ReplicationError.unreachable(url: url.description, detail: CredentialMask.masked("\(error)"))
            }
        }
    }

    /// Sends a request and parses a 2xx JSON reply, mapping other statuses to typed errors.
    func sendJSON(_ method: String, _ target: URL, body: Data? = nil, accept: String = "application/json",
                  missingDatabaseOn404: Bool = false) async throws -> JSONValue {
        let reply = try await send(method, target, body: body, contentType: body == nil ? nil : "application/json", accept: accept)
        guard (200..<300).contains(reply.status) else {
            throw error(for: reply, missingDatabaseOn404: missingDatabaseOn404)
        }
        return try parse(reply)
    }

    /// Parses a reply body as JSON or throws `malformedReply` naming the endpoint and where
    /// the text stops being JSON (the parser's byte offset).
    func parse(_ reply: HTTPReply) throws -> JSONValue {
        do {
            return try JSONValue.parse(reply.body)
        } catch {
            throw ReplicationError.malformedReply(url: url.description, detail: "\(reply.endpoint): \(error)")
        }
    }

    /// How errors name a request: its method and path, without the query (which can be long
    /// and is not needed to find the endpoint).
    static func endpoint(_ method: String, _ target: URL) -> String {
        "\(method) \(target.path)"
    }

    /// The typed error for a non-2xx reply.
    func error(for reply: HTTPReply, missingDatabaseOn404: Bool = false) -> ReplicationError {
        let body = CouchError(status: reply.status, body: reply.body)
        let (error, reason) = (body.error, body.reason)
        switch reply.status {
        case 401: return .unauthorized(url: url.description, reason: reason.isEmpty ? error : reason)
        case 403: return .forbidden(url: url.description, reason: reason.isEmpty ? error : reason)
        case 404 where missingDatabaseOn404 || reason == "Database does not exist." || reason == "no_db_file":
            return .databaseNotFound(url: url.description)
        default:
            return .httpStatus(url: url.description, status: reply.status, error: error, reason: reason)
        }
    }

    private func applyAuthentication(to request: inout URLRequest) {
        guard let user else { return }
        switch options.authentication {
        case .basic:
            let token = Data("\(user):\(password ?? "")".utf8).base64EncodedString()
            request.setValue("Basic \(token)", forHTTPHeaderField: "Authorization")
        case .cookieSession:
            if let value = cookie.withLock({ $0 }) { request.setValue(value, forHTTPHeaderField: "Cookie") }
        }
    }

    /// `POST /_session` with the credentials; keeps the `AuthSession` cookie.
    private func login() async throws {
        guard let user else { return }
        var request = URLRequest(url: url.serverURL.appendingPathComponent("_session"))
        request.httpMethod = "POST"
        request.timeoutInterval = options.requestTimeout
        request.setValue(UserAgent.value, forHTTPHeaderField: "User-Agent")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = JSONWriter.couchDB.data(.object(["name": .string(user), "password": .string(password ?? "")]))
        let response: URLResponse
        let data: Data
        do {
            (data, response) = try await session.cancellableData(for: request)
        } catch is CancellationError {
            throw ReplicationError.cancelled
        } catch let error as URLError {
            if error.code == .timedOut { throw ReplicationError.timedOut(url: url.description) }
            throw ReplicationError.unreachable(url: url.description, detail: CredentialMask.masked(error.localizedDescription))
        }
        guard let http = response as? HTTPURLResponse else {
            throw ReplicationError.malformedReply(url: url.description, detail: "not an HTTP reply to /_session")
        }
        guard (200..<300).contains(http.statusCode) else {
            throw error(for: HTTPReply(status: http.statusCode, headers: [:], body: data))
        }
        let setCookie = http.allHeaderFields.first { ($0.key as? String)?.lowercased() == "set-cookie" }?.value as? String
        guard let setCookie, let pair = setCookie.split(separator: ";").first, pair.hasPrefix("AuthSession=") else {
            throw ReplicationError.malformedReply(url: url.description, detail: "/_session set no AuthSession cookie")
        }
        cookie.withLock { $0 = String(pair) }
        logger.debug("logged in to \(url.description) as \(user)")
    }

    private func backoff(_ attempt: Int) async throws {
        let delay = min(options.maxBackoff, options.initialBackoff * pow(2, Double(attempt)))
        do {
            try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
        } catch {
            throw ReplicationError.cancelled
        }
    }

    private func checkCancelled() throws {
        if Task.isCancelled { throw ReplicationError.cancelled }
    }

    private static func isTransient(_ error: URLError) -> Bool {
        switch error.code {
        case .timedOut, .networkConnectionLost, .cannotConnectToHost, .notConnectedToInternet,
             .dnsLookupFailed, .cannotFindHost, .badServerResponse, .secureConnectionFailed, .resourceUnavailable, .unknown:
            return true
        default:
            return false
        }
    }
}
