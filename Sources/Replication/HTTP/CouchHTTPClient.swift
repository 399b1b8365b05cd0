import AsyncHTTPClient
import CouchProtocol
import DocumentStore
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization
import DocumentFormat
import HTTPSupport

/// Sends requests to one CouchDB server over AsyncHTTPClient: authentication (basic or
/// cookie session), the `User-Agent`, timeouts, bounded replies, and retries with exponential
/// backoff on connection errors, timeouts and 5xx replies. Never logs or reports a password.
///
/// Each client owns an `HTTPClient` on NIO's shared event loops, opening at most
/// `CouchClientOptions.maxConnections` connections to the server and keeping them open
/// between requests; it is shut down when the client is released.
final class CouchHTTPClient: Sendable {
    let url: CouchURL
    let options: CouchClientOptions
    private let http: HTTPClient
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
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60),
                                             concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, options.maxConnections))
        // A connection that cannot be made fails its request at once; `send` retries with
        // the options' backoff, so an unreachable server is reported after those retries,
        // not after the pool's own attempts have used up the connect timeout of each.
        configuration.connectionPool.retryConnectionEstablishment = false
        let idle = Self.timeAmount(options.requestTimeout)
        configuration.timeout = .init(connect: idle, read: idle, write: idle)
        configuration.decompression = .disabled
        // The system's roots, plus the user's CAs: verification of the chain and of the host
        // name stays on whatever the options say.
        var tls = TLSConfiguration.makeClientConfiguration()
        if let trusted = options.trustedCertificates, !trusted.certificates.isEmpty {
            tls.additionalTrustRoots = [.certificates(trusted.certificates)]
        }
        configuration.tlsConfiguration = tls
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    deinit {
        // Shutting down only closes idle connections: nothing is in flight once the last
        // reference to this client is gone. The callback keeps the HTTPClient alive until
        // it has finished.
        http.shutdown { _ in }
    }

    /// The URL of a path under the database (`segments` already encoded) with a query.
    func databaseURL(_ encodedSegments: [String] = [], query: [(String, String)] = []) -> URL {
        var text = url.serverURL.absoluteString + "/" + PercentEncoding.pathSegment(url.databaseName)
        for segment in encodedSegments { text += "/" + segment }
        if !query.isEmpty {
            text += "?" + query.map { "\($0.0)=\(PercentEncoding.queryValue($0.1))" }.joined(separator: "&")
        }
        return URL(string: text)!
    }

    /// Sends a request, retrying transient failures; returns the final reply whatever its
    /// status (callers map statuses to errors). Throws on connection failures after retries.
    /// With `throughFile`, the reply body is received into a temporary file and mapped from
    /// it, so a large body (attachments) is not held twice while it arrives. With `bodyFile`,
    /// the request body is that file, mapped and sent a few megabytes at a time, instead of
    /// `body`. `retries` overrides `CouchClientOptions.maxRetries` (0: one attempt) and
    /// `timeout` bounds the whole exchange (by default ten times the request timeout, at
    /// least five minutes).
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
            var request = HTTPClientRequest(url: target.absoluteString)
            request.method = HTTPMethod(rawValue: method)
            request.headers.add(name: "User-Agent", value: UserAgent.value)
            request.headers.add(name: "Accept", value: accept)
            if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
            applyAuthentication(to: &request)
            if let bodyFile {
                do {
                    request.body = .bytes(try Data(contentsOf: bodyFile, options: .alwaysMapped))
                } catch {
                    throw ReplicationError.store("cannot read the upload file \(bodyFile.path): \(error)", cause: error)
                }
            } else if let body {
                request.body = .bytes(body)
            }
            let started = ContinuousClock.now
            let failure: TransportFailure
            do {
                let reply = try await exchange(request, endpoint: Self.endpoint(method, target), throughFile: throughFile, timeout: timeout)
                logger.debug("\(method) \(target.path) -> \(reply.status) (\(reply.body.count) bytes, \(ContinuousClock.now - started))")
                if reply.status == 401, options.authentication == .cookieSession, user != nil, !renewedSession {
                    renewedSession = true
                    cookie.withLock { $0 = nil }
                    continue
                }
                if reply.status >= 500, attempt < maxRetries {
                    try await backoff(attempt, after: "\(method) \(url.serverURL.absoluteString)\(target.path.dropFirst(url.serverURL.path.count)): server answered \(reply.status)")
                    attempt += 1
                    continue
                }
                return reply
            } catch let error as ReplyBodyError {
                throw replicationError(error, endpoint: Self.endpoint(method, target))
            } catch {
                failure = TransportFailure(error)
            }
            switch failure {
            case .cancelled:
                throw ReplicationError.cancelled
            case .timedOut where attempt < maxRetries, .transient where attempt < maxRetries:
                try await backoff(attempt, after: "\(method) \(url.description): \(failure.detail)")
                attempt += 1
            case .timedOut:
                throw ReplicationError.timedOut(url: url.description)
            case .untrustedCertificate(let reason):
                throw ReplicationError.untrustedCertificate(url: url.description, host: url.serverURL.host ?? url.description, reason: reason)
            case .transient(let detail), .permanent(let detail):
                if Task.isCancelled { throw ReplicationError.cancelled }
                throw ReplicationError.unreachable(url: url.description, detail: detail)
            }
        }
    }

    /// One attempt: sends `request` and reads its reply whole, throwing whatever the
    /// transport throws (classified by the caller as a `TransportFailure`).
    private func exchange(_ request: HTTPClientRequest, endpoint: String, throughFile: Bool,
                          timeout: TimeInterval?) async throws -> HTTPReply {
        let deadline = Self.timeAmount(timeout ?? max(options.requestTimeout * 10, 300))
        let response = try await http.execute(request, timeout: deadline)
        return try await HTTPReply(response, endpoint: endpoint, throughFile: throughFile, limit: options.maximumReplyBytes)
    }

    /// Sends a request and parses a 2xx JSON reply, mapping other statuses to typed errors.
    func sendJSON(_ method: String, _ target: URL, body: Data? = nil, accept: String = "application/json",
                  missingDatabaseOn404: Bool = false, timeout: TimeInterval? = nil) async throws -> JSONValue {
        let reply = try await send(method, target, body: body, contentType: body == nil ? nil : "application/json", accept: accept,
                                   timeout: timeout)
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

    private func applyAuthentication(to request: inout HTTPClientRequest) {
        guard let user else { return }
        switch options.authentication {
        case .basic:
            let token = Data("\(user):\(password ?? "")".utf8).base64EncodedString()
            request.headers.add(name: "Authorization", value: "Basic \(token)")
        case .cookieSession:
            if let value = cookie.withLock({ $0 }) { request.headers.add(name: "Cookie", value: value) }
        }
    }

    /// `POST /_session` with the credentials, once; keeps the `AuthSession` cookie.
    private func login() async throws {
        guard let user else { return }
        let target = url.serverURL.appendingPathComponent("_session")
        var request = HTTPClientRequest(url: target.absoluteString)
        request.method = .POST
        request.headers.add(name: "User-Agent", value: UserAgent.value)
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(JSONWriter.couchDB.data(.object(["name": .string(user), "password": .string(password ?? "")])))
        let reply: HTTPReply
        do {
            reply = try await exchange(request, endpoint: Self.endpoint("POST", target), throughFile: false, timeout: nil)
        } catch let error as ReplyBodyError {
            throw replicationError(error, endpoint: Self.endpoint("POST", target))
        } catch {
            switch TransportFailure(error) {
            case .cancelled: throw ReplicationError.cancelled
            case .timedOut: throw ReplicationError.timedOut(url: url.description)
            case .untrustedCertificate(let reason):
                throw ReplicationError.untrustedCertificate(url: url.description, host: url.serverURL.host ?? url.description, reason: reason)
            case .transient(let detail), .permanent(let detail): throw ReplicationError.unreachable(url: url.description, detail: detail)
            }
        }
        guard (200..<300).contains(reply.status) else { throw error(for: reply) }
        let authSession = reply.headers["set-cookie"]?.split(separator: "\n")
            .compactMap { $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } }
            .first { $0.hasPrefix("AuthSession=") }
        guard let authSession else {
            throw ReplicationError.malformedReply(url: url.description, detail: "/_session set no AuthSession cookie")
        }
        cookie.withLock { $0 = authSession }
        logger.debug("logged in to \(url.description) as \(user)")
    }

    /// A reply whose body could not be received: too long to hold (the remote's fault, not
    /// retried), or a temporary file that failed (the local machine's).
    private func replicationError(_ error: ReplyBodyError, endpoint: String) -> ReplicationError {
        switch error {
        case .tooLarge(let limit):
            return .malformedReply(url: url.description,
                                   detail: "\(endpoint): the reply is longer than the \(limit) bytes the client holds in memory (CouchClientOptions.maximumReplyBytes)")
        case .temporaryFile(let path, let cause):
            return .store("cannot receive the reply to \(endpoint) into the temporary file \(path); check that the temporary directory is writable and has space",
                          cause: cause)
        }
    }

    /// Logs the transient failure `what` as a warning naming the retry and its delay (metadata
    /// `retry`, counting from 1, and `delay` in seconds), then waits that delay.
    private func backoff(_ attempt: Int, after what: String) async throws {
        let delay = min(options.maxBackoff, options.initialBackoff * pow(2, Double(attempt)))
        logger.warning("\(what); retrying in \(delay) s", metadata: ["retry": "\(attempt + 1)", "delay": "\(delay)"])
        do {
            try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
        } catch {
            throw ReplicationError.cancelled
        }
    }

    private func checkCancelled() throws {
        if Task.isCancelled { throw ReplicationError.cancelled }
    }

    /// Seconds as NIO's `TimeAmount`, at least a millisecond.
    private static func timeAmount(_ seconds: TimeInterval) -> TimeAmount {
        .milliseconds(Int64(max(0.001, min(seconds, 86_400)) * 1000))
    }
}
