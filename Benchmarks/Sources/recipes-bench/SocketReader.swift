import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Buffered reads of HTTP/1.1 messages from a blocking socket: a head up to its blank line,
/// then a body framed by `Content-Length` or chunked transfer coding, returned as the raw bytes
/// that were on the wire so they can be forwarded unchanged.
final class SocketReader {
    /// A message head: its start line and header lines, without the final blank line.
    struct Head {
        var startLine: String
        var headers: [(name: String, value: String)]

        /// The value of the first header named `name` (ignoring case).
        func value(of name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Reads one head; nil when the peer closed or failed before a whole head arrived.
    func readHead() -> Head? {
        while true {
            if let end = find([13, 10, 13, 10]) {
                let text = String(decoding: buffer[0..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                var lines = text.components(separatedBy: "\r\n")
                let startLine = lines.removeFirst()
                let headers = lines.compactMap { line -> (name: String, value: String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
                }
                return Head(startLine: startLine, headers: headers)
            }
            if buffer.count > 1 << 20 || !fill() { return nil }
        }
    }

    /// Reads the body that `head` frames, as raw bytes (chunk framing included); nil when the
    /// peer closed or failed before it was whole.
    func readBody(framedBy head: Head) -> [UInt8]? {
        if head.value(of: "Transfer-Encoding")?.lowercased().contains("chunked") == true {
            var raw: [UInt8] = []
            while true {
                guard let line = readLine() else { return nil }
                raw += line
                let text = String(decoding: line, as: UTF8.self)
                let sizeText = text.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
                guard let size = Int(sizeText, radix: 16), size >= 0 else { return nil }
                if size == 0 {
                    while true {
                        guard let trailer = readLine() else { return nil }
                        raw += trailer
                        if trailer.count == 2 { return raw }
                    }
                }
                guard let chunk = readExactly(size + 2) else { return nil }
                raw += chunk
            }
        }
        let length = head.value(of: "Content-Length").flatMap { Int($0) } ?? 0
        return readExactly(length)
    }

    /// Every byte until the peer closes (or a receive timeout or error ends the read).
    func readToEnd() -> [UInt8] {
        while fill() {}
        defer { buffer = [] }
        return buffer
    }

    /// One line with its CRLF.
    private func readLine() -> [UInt8]? {
        while true {
            if let end = find([13, 10]) {
                let line = Array(buffer[0..<end + 2])
                buffer.removeFirst(end + 2)
                return line
            }
            if buffer.count > 64 * 1024 || !fill() { return nil }
        }
    }

    private func readExactly(_ count: Int) -> [UInt8]? {
        while buffer.count < count {
            if !fill() { return nil }
        }
        let bytes = Array(buffer[0..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// Receives more bytes; false at end of stream, on error or on the receive timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
            if count > 0 {
                buffer += chunk[0..<count]
                return true
            }
            if count < 0, errno == EINTR { continue }
            return false
        }
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        var index = 0
        while index <= buffer.count - pattern.count {
            if buffer[index] == pattern[0], Array(buffer[index..<index + pattern.count]) == pattern { return index }
            index += 1
        }
        return nil
    }
}
