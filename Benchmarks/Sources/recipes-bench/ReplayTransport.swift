import Foundation

/// An HTTP client as `recipes-bench http-clients` drives it: one request at a time per call,
/// several calls in flight at once, each reply's body received whole before the call returns.
protocol ReplayTransport: Sendable {
    /// Sends one request to `url` with `headers` and an optional `body`; returns the status and
    /// how many body bytes arrived. The body is received in full, then dropped unless
    /// `keepBody`, so neither client pays for a copy the other does not make.
    func send(_ method: String, _ url: URL, headers: [(String, String)], body: Data?, keepBody: Bool) async throws -> ReplayReply

    /// Releases the client's connections and threads.
    func shutdown() async throws
}

/// What one replayed request brought back.
struct ReplayReply: Sendable {
    /// The HTTP status.
    var status: Int
    /// How many body bytes arrived.
    var bytes: Int
    /// The reply body, when the replay asked to keep it (it must read `_changes`).
    var body: Data?
}

/// A reply the replay did not expect (not 2xx).
struct ReplayFailure: Error, CustomStringConvertible {
    /// The request, as `METHOD path`.
    var request: String
    /// The status it got.
    var status: Int
    var description: String { "\(request) answered \(status)" }
}

/// The two clients compared.
enum ReplayClientKind: String, CaseIterable, Sendable {
    /// Foundation's URLSession (FoundationNetworking on Linux, over libcurl), set up as the
    /// replication client's `CouchHTTPClient` set it up before it moved to AsyncHTTPClient.
    case urlsession
    /// AsyncHTTPClient on SwiftNIO, one shared `HTTPClient`, as `CouchHTTPClient` uses it.
    case ahc

    /// A client of this kind opening at most `connections` connections to a host.
    func makeTransport(connections: Int, timeout: TimeInterval) -> any ReplayTransport {
        switch self {
        case .urlsession: URLSessionReplayTransport(connections: connections, timeout: timeout)
        case .ahc: AsyncHTTPClientReplayTransport(connections: connections, timeout: timeout)
        }
    }
}
