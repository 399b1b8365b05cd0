import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sends raw HTTP/1.1 request bytes to 127.0.0.1 over a fresh TCP connection and reads the
/// reply until the server closes it or a deadline passes. Nothing is validated or normalised
/// on the way out, so hostile request lines, headers and framing reach the server as written.
struct RawHTTPClient {
    /// What came back on one connection.
    struct Exchange {
        /// Every byte the server sent before closing or the deadline.
        var bytes: [UInt8]
        /// The deadline passed with the connection still open.
        var timedOut: Bool
        /// The connection could not be made (nobody listening, or refused).
        var connectFailed: Bool
        /// The server reset the connection.
        var reset: Bool
    }

    let port: Int

    /// Connects, writes `request` (half-closing when `closeWriteSide`, so a body shorter than
    /// its Content-Length ends), then reads until EOF or `deadline` seconds.
    func exchange(_ request: [UInt8], deadline: Double, closeWriteSide: Bool) -> Exchange {
        var result = Exchange(bytes: [], timedOut: false, connectFailed: false, reset: false)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else {
            result.connectFailed = true
            return result
        }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sendTimeout = timeval(tv_sec: Int(deadline.rounded(.up)), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            result.connectFailed = true
            return result
        }
        let start = ContinuousClock.now
        // A server may answer (say 413) and close before taking the whole body: stop writing
        // then and read what it said.
        var written = 0
        request.withUnsafeBytes { raw in
            while written < raw.count {
                let count = send(descriptor, raw.baseAddress! + written, raw.count - written, Int32(MSG_NOSIGNAL))
                if count <= 0 { break }
                written += count
            }
        }
        if closeWriteSide { shutdown(descriptor, Int32(SHUT_WR)) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
            if count > 0 {
                result.bytes += buffer[0..<count]
                // A reply this large is not what any fuzz request asks for: stop reading.
                if result.bytes.count > 16 * 1024 * 1024 { break }
                continue
            }
            if count == 0 { break }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                if Self.seconds(since: start) >= deadline {
                    result.timedOut = true
                    break
                }
                continue
            }
            result.reset = errno == ECONNRESET
            break
        }
        return result
    }

    /// Seconds elapsed since `start`.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
