internal import Foundation
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A minimal HTTP/1.1 client for one request to a server on 127.0.0.1.
///
/// It exists because `URLSession` on Linux cannot talk to chromedriver: chromedriver
/// writes headers without a space after the colon (`Content-Length:250`), which
/// swift-corelibs-foundation rejects with "Failed writing header". The blocking socket
/// work runs on a thread of its own, never on Swift's cooperative pool, and the socket
/// has send and receive timeouts plus an overall deadline.
enum LoopbackHTTP {
    /// What the server answered.
    struct Response: Sendable {
        /// The HTTP status code.
        let status: Int
        /// The body, `Content-Length` bytes of it (or everything up to the close).
        let body: Data
    }

    /// A failure below HTTP: connecting, sending, receiving or the deadline.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends `method path` with `body` as JSON to `127.0.0.1:port` and waits at most
    /// `timeout` seconds for the whole answer.
    static func request(port: Int, method: String, path: String, body: Data?, timeout: TimeInterval) async throws
        -> Response
    {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result {
                    try exchange(port: port, method: method, path: path, body: body, timeout: timeout)
                })
            }
            thread.name = "BrowserSupport HTTP"
            thread.start()
        }
    }

    private static func exchange(port: Int, method: String, path: String, body: Data?, timeout: TimeInterval) throws
        -> Response
    {
        let deadline = Date(timeIntervalSinceNow: timeout)
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket(): \(String(cString: strerror(errno)))") }
        defer { close(fd) }

        var limit = timeval()
        limit.tv_sec = .init(timeout.rounded(.down))
        limit.tv_usec = .init((timeout - timeout.rounded(.down)) * 1_000_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            throw Failure(description: "connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }

        let payload = body ?? Data()
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        head += "Accept: application/json\r\n"
        if body != nil || method == "POST" {
            head += "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(payload.count)\r\n"
        }
        head += "\r\n"
        try sendAll(fd, Data(head.utf8) + payload)

        var received = Data()
        var expectedTotal: Int?
        var headerEnd: Int?
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while expectedTotal.map({ received.count < $0 }) ?? true {
            guard Date() < deadline else { throw Failure(description: "no complete answer within \(timeout) s") }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    throw Failure(description: "no complete answer within \(timeout) s")
                }
                throw Failure(description: "recv(): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            received.append(contentsOf: buffer[0..<count])
            if headerEnd == nil, let end = received.firstRange(of: Data("\r\n\r\n".utf8)) {
                headerEnd = end.upperBound - received.startIndex
                if let length = contentLength(in: received[received.startIndex..<end.lowerBound]) {
                    expectedTotal = headerEnd! + length
                }
            }
        }
        guard let headerEnd else { throw Failure(description: "connection closed before the headers ended") }
        let headerText = String(decoding: received.prefix(headerEnd), as: UTF8.self)
        let statusLine = headerText.prefix { $0 != "\r" }.split(separator: " ")
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/"), let status = Int(statusLine[1]) else {
            throw Failure(description: "not an HTTP response: \(headerText.prefix(100))")
        }
        var bodyData = Data(received.dropFirst(headerEnd))
        if let expectedTotal {
            guard received.count >= expectedTotal else {
                throw Failure(description: "connection closed after \(bodyData.count) of \(expectedTotal - headerEnd) body bytes")
            }
            bodyData = bodyData.prefix(expectedTotal - headerEnd)
        }
        return Response(status: status, body: bodyData)
    }

    private static func sendAll(_ fd: Int32, _ data: Data) throws {
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "send(): \(String(cString: strerror(errno)))")
            }
            offset += sent
        }
    }

    /// The `Content-Length` header's value, read leniently (any case, optional spaces).
    private static func contentLength(in header: Data) -> Int? {
        let text = String(decoding: header, as: UTF8.self)
        for line in text.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "content-length" {
                return Int(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }
}
