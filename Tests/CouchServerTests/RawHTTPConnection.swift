import InteropSupport
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Why a raw HTTP exchange failed.
struct RawHTTPError: Error, CustomStringConvertible {
    var description: String
    /// No reply came within the time allowed.
    static let timedOut = RawHTTPError(description: "timed out waiting for a reply")
}

/// One HTTP/1.1 connection to 127.0.0.1 over a plain socket, for requests URLSession will not
/// send as given: a foreign `Host`, a head whose body comes later or never. Blocking calls run
/// on a dispatch queue, off the cooperative pool the server's handlers need.
final class RawHTTPConnection: Sendable {
    private let descriptor: Int32
    /// What `read(until:)` and `readStreamedReply` have received so far.
    private let streamed = Mutex(Data())

    init(port: Int, sendTimeout seconds: Int = 30) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawHTTPError(description: "socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw RawHTTPError(description: "connect() to port \(port) failed")
        }
        // A peer that stops reading fails `send` after `seconds` instead of blocking it for ever.
        var sendTimeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// Sends `data` in full.
    func send(_ data: Data) async throws {
        try await Self.offPool { [descriptor] in
            try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                    guard written > 0 else { throw RawHTTPError(description: "send() failed: errno \(errno)") }
                    offset += written
                }
            }
        }
    }

    /// Sends a request head: `lines` joined by CRLF, then the blank line.
    func sendHead(_ lines: [String]) async throws {
        try await send(Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
    }

    /// Reads one reply (head and a `Content-Length` body); `RawHTTPError.timedOut` when none
    /// is complete within `timeout` seconds (by default a minute: a hang guard, with room for
    /// a machine busy with the whole suite and more).
    func readReply(timeout: Double = 60) async throws -> HTTPReply {
        try await Self.offPool { [descriptor] in
            let deadline = Date().addingTimeInterval(timeout)
            var received = Data()
            var reply: HTTPReply?
            while reply == nil {
                let remaining = deadline.timeIntervalSinceNow
                guard remaining > 0 else { throw RawHTTPError.timedOut }
                var wait = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&wait, 1, Int32(max(1, remaining * 1000)))
                guard ready > 0 else { throw RawHTTPError.timedOut }
                var chunk = [UInt8](repeating: 0, count: 65536)
                let count = recv(descriptor, &chunk, chunk.count, 0)
                if count > 0 { received.append(contentsOf: chunk[0..<count]) }
                reply = Self.parse(received)
                if count <= 0, reply == nil { throw RawHTTPError(description: "connection closed before a whole reply") }
            }
            return reply!
        }
    }

    /// Waits until the server closes the connection, reading and dropping whatever it sends
    /// meanwhile; `false` when it is still open after `timeout` seconds.
    func waitForClose(timeout: Double) async throws -> Bool {
        try await Self.offPool { [descriptor] in
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                let remaining = deadline.timeIntervalSinceNow
                guard remaining > 0 else { return false }
                var wait = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&wait, 1, Int32(max(1, remaining * 1000))) > 0 else { return false }
                var chunk = [UInt8](repeating: 0, count: 65536)
                if recv(descriptor, &chunk, chunk.count, 0) <= 0 { return true }
            }
        }
    }

    /// Reads a streamed reply (a feed) until what has arrived so far satisfies `done`, and
    /// returns everything received on the connection up to then. `RawHTTPError.timedOut` when
    /// it does not within `timeout` seconds; an error when the server closes first.
    func read(until done: @escaping @Sendable (Data) -> Bool, timeout: Double = 30) async throws -> Data {
        try await Self.offPool { [self] in
            let deadline = Date().addingTimeInterval(timeout)
            while !done(self.streamed.withLock { $0 }) {
                let remaining = deadline.timeIntervalSinceNow
                guard remaining > 0 else { throw RawHTTPError.timedOut }
                var wait = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&wait, 1, Int32(max(1, remaining * 1000))) > 0 else { throw RawHTTPError.timedOut }
                var chunk = [UInt8](repeating: 0, count: 65536)
                let count = recv(self.descriptor, &chunk, chunk.count, 0)
                guard count > 0 else { throw RawHTTPError(description: "connection closed while waiting for more of a streamed reply") }
                self.streamed.withLock { $0.append(contentsOf: chunk[0..<count]) }
            }
            return self.streamed.withLock { $0 }
        }
    }

    /// Reads a streamed reply until the server closes the connection, and returns it whole:
    /// head, and body with any chunked framing removed.
    func readStreamedReply(timeout: Double = 30) async throws -> HTTPReply {
        let data = try await Self.offPool { [self] in
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                let remaining = deadline.timeIntervalSinceNow
                guard remaining > 0 else { throw RawHTTPError.timedOut }
                var wait = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&wait, 1, Int32(max(1, remaining * 1000))) > 0 else { throw RawHTTPError.timedOut }
                var chunk = [UInt8](repeating: 0, count: 65536)
                let count = recv(self.descriptor, &chunk, chunk.count, 0)
                if count <= 0 { return self.streamed.withLock { $0 } }
                self.streamed.withLock { $0.append(contentsOf: chunk[0..<count]) }
            }
        }
        guard let end = data.range(of: Data("\r\n\r\n".utf8)), var reply = Self.parse(Data(data[..<end.upperBound])) else {
            throw RawHTTPError(description: "no reply head in \(String(decoding: data, as: UTF8.self))")
        }
        let body = Data(data[end.upperBound...])
        if reply.header("Transfer-Encoding")?.lowercased() == "chunked" {
            reply.body = try Self.dechunk(body)
        } else {
            reply.body = body
        }
        return reply
    }

    /// Whether `data` holds a reply head and at least one byte of its body: the server is
    /// streaming the reply (a feed has started and sent its first heartbeat or change).
    static func bodyStarted(_ data: Data) -> Bool {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return false }
        return end.upperBound < data.endIndex
    }

    /// A chunked body without its framing (RFC 9112 §7.1).
    static func dechunk(_ data: Data) throws -> Data {
        var body = Data()
        var rest = data[...]
        while let lineEnd = rest.range(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw RawHTTPError(description: "bad chunk size line \(sizeText)")
            }
            if size == 0 { return body }
            let start = lineEnd.upperBound
            guard rest.distance(from: start, to: rest.endIndex) >= size + 2 else {
                throw RawHTTPError(description: "a chunk was cut short")
            }
            let stop = rest.index(start, offsetBy: size)
            body.append(rest[start..<stop])
            rest = rest[rest.index(stop, offsetBy: 2)...]
        }
        throw RawHTTPError(description: "the chunked body has no last chunk")
    }

    /// A whole reply in `data`, or `nil` while it is incomplete.
    private static func parse(_ data: Data) -> HTTPReply? {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers = [String: String]()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = headers.first { $0.key.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        let body = data[end.upperBound...]
        guard body.count >= length else { return nil }
        return HTTPReply(status: status, headers: headers, body: Data(body.prefix(length)))
    }

    /// Runs blocking socket work on a dispatch queue.
    private static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }
}

extension RawHTTPConnection {
    /// Sends `GET path` to the server on `port` (asking it to close the connection after the
    /// reply) and returns once the reply's body has started: for a feed, the event that says it
    /// is open and waiting (it has sent its first heartbeat or change).
    static func openFeed(_ path: String, port: Int, headers: [String] = [], timeout: Double = 60) async throws -> RawHTTPConnection {
        let connection = try RawHTTPConnection(port: port)
        try await connection.sendHead(["GET \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"] + headers)
        _ = try await connection.read(until: bodyStarted, timeout: timeout)
        return connection
    }
}
