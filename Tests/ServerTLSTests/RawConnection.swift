import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to 127.0.0.1 that sends what it is given, as a client that speaks
/// no TLS (or nothing sensible) would, and reads until the server closes it. The blocking
/// calls run on a dispatch queue, off the cooperative pool the server needs.
enum RawConnection {
    /// What happened to the connection.
    enum Outcome: Sendable, Equatable {
        /// The server closed it, after sending this many bytes (a TLS alert, say).
        case closed(bytesReceived: Int)
        /// Nothing closed it within the timeout.
        case stillOpen
    }

    /// Connects to `port`, sends `bytes`, and waits up to `timeout` seconds for the server to
    /// close the connection.
    static func send(_ bytes: [UInt8], port: Int, timeout: Int = 20) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try exchange(bytes, port: port, timeout: timeout) })
            }
        }
    }

    private static func exchange(_ bytes: [UInt8], port: Int, timeout: Int) throws -> Outcome {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawConnectionError(message: "socket() failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw RawConnectionError(message: "connect() to port \(port) failed: errno \(errno)") }
        var receiveTimeout = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &receiveTimeout, socklen_t(MemoryLayout<timeval>.size))
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw RawConnectionError(message: "send() failed: errno \(errno)") }
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += count
            } else if count == 0 || errno == ECONNRESET {
                return .closed(bytesReceived: received)
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                return .stillOpen
            } else if errno != EINTR {
                throw RawConnectionError(message: "recv() failed: errno \(errno)")
            }
        }
    }
}

/// A raw connection that could not be made.
struct RawConnectionError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
