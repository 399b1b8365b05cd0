import InteropSupport
import Foundation
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
final class RawHTTPConnection: @unchecked Sendable {
    private let descriptor: Int32

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
    /// is complete within `timeout` seconds.
    func readReply(timeout: Double = 30) async throws -> HTTPReply {
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
