import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession configured as `CouchHTTPClient` configured it before the replication client
/// moved to AsyncHTTPClient: an ephemeral session, no cookies or cache, at most `connections`
/// connections per host, and each request a data task whose completion handler receives the
/// whole body. Kept so the measurement behind that move can be run again.
final class URLSessionReplayTransport: ReplayTransport {
    private let session: URLSession
    private let timeout: TimeInterval

    /// A session opening at most `connections` connections to a host.
    init(connections: Int, timeout: TimeInterval) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = max(timeout * 10, 300)
        configuration.httpMaximumConnectionsPerHost = max(1, connections)
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
        self.timeout = timeout
    }

    func send(_ method: String, _ url: URL, headers: [(String, String)], body: Data?, keepBody: Bool) async throws -> ReplayReply {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = timeout
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response): (Data, URLResponse) = try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let response {
                    continuation.resume(returning: (data ?? Data(), response))
                } else {
                    continuation.resume(throwing: URLError(.badServerResponse))
                }
            }.resume()
        }
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return ReplayReply(status: http.statusCode, bytes: data.count, body: keepBody ? data : nil)
    }

    func shutdown() async throws {
        session.finishTasksAndInvalidate()
    }
}
