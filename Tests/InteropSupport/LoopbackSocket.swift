import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket bound to a loopback address, for the tests' own listeners and for finding a
/// port nothing listens on.
enum LoopbackSocket {
    /// Binds a new TCP socket to `address`:`port` (0: a port the system picks); the socket's
    /// descriptor, which the caller closes, and the port it got.
    /// With `reuseAddress`, the port of a listener closed a moment ago can be taken again (its
    /// connections may still be in TIME_WAIT).
    static func bind(address: String = "127.0.0.1", port: Int = 0, reuseAddress: Bool = false) throws -> (descriptor: Int32, port: Int) {
        guard let requested = UInt16(exactly: port) else { throw SocketError(message: "bad port \(port)") }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError(message: "socket() failed: errno \(errno)") }
        if reuseAddress {
            var reuse: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        }
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = requested.bigEndian
        guard inet_pton(AF_INET, address, &socketAddress.sin_addr) == 1 else {
            close(descriptor)
            throw SocketError(message: "not an IPv4 address: \(address)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard named else {
            close(descriptor)
            throw SocketError(message: "cannot bind \(address):\(port): errno \(errno)")
        }
        return (descriptor, Int(UInt16(bigEndian: socketAddress.sin_port)))
    }
}

/// A loopback socket that could not be made.
public struct SocketError: Error, CustomStringConvertible {
    /// What failed.
    public var message: String
    public var description: String { message }
}
