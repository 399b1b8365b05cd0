import NIOFoundationEssentialsCompat
import Foundation
import Hummingbird
import Logging
import NIOCore
import TestSupport

/// A tiny loopback HTTP server for the failures a real CouchDB can't be made to produce:
/// each request is answered by a closure (malformed JSON, cut-short bodies, 503s, 401s…).
/// It records what it was asked, so tests can check what the client sent.
final class CannedResponder: Sendable {
    struct Recorded: Sendable {
        var method: String
        var path: String
        var query: String
        /// Header names lower-cased.
        var headers: [String: String]
        var body: Data
    }

    struct Reply: Sendable {
        var status: Int
        var body: String
        var contentType: String = "application/json"
        /// A `Content-Length` to announce instead of the real one, with the connection closed
        /// after the body: the reply arrives cut short.
        var announcedLength: Int? = nil
        /// Raw bytes to send instead of `body` (multipart replies with binary parts).
        var data: Data? = nil
    }

    let port: Int
    private let task: Task<Void, Error>
    private let log = Locked<[Recorded]>([])

    /// Starts on 127.0.0.1 and an ephemeral port; `handler` answers every request.
    init(_ handler: @escaping @Sendable (Recorded, Int) -> Reply) async throws {
        // The server announces its port once it listens; the stream ends if it stops first.
        let (announcements, announce) = AsyncStream<Int?>.makeStream()
        let log = self.log
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            var buffer = try await request.body.collect(upTo: 64 * 1024 * 1024)
            let body = buffer.readData(length: buffer.readableBytes) ?? Data()
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName.lowercased()] = field.value }
            let recorded = Recorded(method: request.method.rawValue, path: request.uri.path,
                                    query: request.uri.query ?? "", headers: headers, body: body)
            let count = log.withLock { entries -> Int in
                entries.append(recorded)
                return entries.count
            }
            let reply = handler(recorded, count)
            var fields: HTTPFields = [.contentType: reply.contentType]
            if let announced = reply.announcedLength {
                fields[.contentLength] = String(announced)
                fields[.connection] = "close"
            }
            return Response(status: .init(code: reply.status), headers: fields,
                            body: .init(byteBuffer: ByteBuffer(bytes: reply.data ?? Data(reply.body.utf8))))
        }
        var logger = Logger(label: "canned-responder")
        logger.logLevel = .critical
        let app = Application(responder: responder,
                              configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { channel in announce.yield(channel.localAddress?.port) },
                              logger: logger)
        task = Task {
            defer { announce.finish() }
            try await app.run()
        }
        // A hang guard: a server that neither listens nor stops within 30 s fails the test.
        let announced = try? await withTimeout(30) { await announcements.first { _ in true } ?? nil }
        guard let port = announced else {
            task.cancel()
            throw CancellationError()
        }
        self.port = port
    }

    /// Requests received so far.
    var requests: [Recorded] { log.withLock { $0 } }

    func url(_ database: String, user: String? = nil, password: String? = nil) -> String {
        let credentials = user.map { "\($0):\(password ?? "")@" } ?? ""
        return "http://\(credentials)127.0.0.1:\(port)/\(database)"
    }

    func stop() { task.cancel() }

    deinit { task.cancel() }
}

/// A value behind a lock, for test fixtures shared across tasks.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
