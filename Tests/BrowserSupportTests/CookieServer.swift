import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A one-page HTTP server on 127.0.0.1 that sets two cookies, because browsers keep no
/// cookies for `file://` pages. It answers every request with the same page.
final class CookieServer: Sendable {
    let port: Int
    private let listener: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard fd >= 0, bound else { throw CocoaError(.fileWriteUnknown) }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [fd] in Self.serve(fd) }.start()
    }

    var url: String { "http://127.0.0.1:\(port)/" }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func serve(_ listener: Int32) {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            var request = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !request.ends(with: Array("\r\n\r\n".utf8)) {
                let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                request += buffer[0..<count]
            }
            let body = "<!doctype html><title>Cookies</title><p>Signed in</p>"
            let response = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Set-Cookie: session=s3cret; Path=/; HttpOnly; SameSite=Strict\r\n"
                + "Set-Cookie: theme=dark; Path=/; SameSite=Lax\r\nConnection: close\r\n\r\n" + body
            _ = Array(response.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(connection)
        }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
