import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// A client of the tests' own for HTTPS to a server under test: AsyncHTTPClient with the
/// system's roots plus the CA files given, verifying the certificate and its name as any
/// client must. One instance keeps its connections open between requests.
public final class HTTPSProbe: Sendable {
    private let http: HTTPClient

    /// A client that trusts `caFiles` besides the system's roots.
    public init(trusting caFiles: [URL]) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = try caFiles.map { .certificates(try NIOSSLCertificate.fromPEMFile($0.path)) }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 1)
        configuration.connectionPool.retryConnectionEstablishment = false
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    deinit { http.shutdown { _ in } }

    /// A reply: its status, headers and body.
    public struct Reply: Sendable {
        /// The status code.
        public var status: Int
        /// The header fields, in order.
        public var headers: [(name: String, value: String)]
        /// The body, as text.
        public var body: String

        /// The values of header `name` (any case).
        public func header(_ name: String) -> [String] {
            headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }
    }

    /// Sends `method` to `url` and reads the whole reply.
    public func send(_ method: String = "GET", _ url: String, headers: [(String, String)] = [], body: String? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await http.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 16 << 20)
        return Reply(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: String(buffer: bytes))
    }
}
