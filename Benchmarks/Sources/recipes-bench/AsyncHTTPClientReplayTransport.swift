import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// AsyncHTTPClient as a port of the replication client would use it: one `HTTPClient` on
/// NIO's shared event loops, HTTP/1.1, at most `connections` connections to a host (kept
/// open between requests), each reply's body collected whole.
final class AsyncHTTPClientReplayTransport: ReplayTransport {
    private let client: HTTPClient
    private let timeout: TimeAmount

    /// Replies larger than this are refused (far above anything the replay asks for).
    private static let maximumBodyBytes = 1 << 30

    /// A client opening at most `connections` connections to a host.
    init(connections: Int, timeout: TimeInterval) {
        var configuration = HTTPClient.Configuration()
        configuration.httpVersion = .http1Only
        configuration.connectionPool = .init(idleTimeout: .seconds(60),
                                             concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, connections))
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(Int64(timeout)))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.timeout = .seconds(Int64(timeout))
    }

    func send(_ method: String, _ url: URL, headers: [(String, String)], body: Data?, keepBody: Bool) async throws -> ReplayReply {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(body) }
        let response = try await client.execute(request, timeout: timeout)
        let buffer = try await response.body.collect(upTo: Self.maximumBodyBytes)
        return ReplayReply(status: Int(response.status.code), bytes: buffer.readableBytes,
                           body: keepBody ? Data(buffer.readableBytesView) : nil)
    }

    func shutdown() async throws {
        try await client.shutdown()
    }
}
