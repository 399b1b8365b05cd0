import Foundation

/// One generated HTTP request for `recipes-bench fuzz`, kept as raw pieces so it can be
/// written byte for byte (invalid UTF-8, odd framing and all) and shown in a report.
struct FuzzRequest {
    /// The method token, e.g. `GET` (it may be a made-up one).
    var method: String
    /// The request target as sent: path and query, percent-encoded or not.
    var target: [UInt8]
    /// Header lines in order; values are raw bytes.
    var headers: [(name: String, value: [UInt8])] = []
    /// The body bytes actually sent.
    var body: [UInt8] = []
    /// The endpoint family, for the report (`/db/_changes`, `/_session`, …).
    var endpoint: String
    /// The framing itself is hostile (a lying Content-Length, a bad chunk, bytes HTTP does
    /// not allow), so the HTTP layer may refuse it with a bare 400 or close the connection.
    var hostileFraming = false
    /// A feed that may legitimately stay open (`longpoll`, `continuous`, `eventsource`).
    var mayHoldOpen = false
    /// Leave out the Content-Length header that `bytes()` adds for a body.
    var omitContentLength = false

    /// The request as it goes on the wire, with `Connection: close` and, unless told not to,
    /// a Content-Length matching the body.
    func bytes() -> [UInt8] {
        var out = Array(method.utf8) + [0x20] + target + Array(" HTTP/1.1\r\n".utf8)
        var names = Set<String>()
        for header in headers {
            names.insert(header.name.lowercased())
            out += Array(header.name.utf8) + Array(": ".utf8) + header.value + [0x0D, 0x0A]
        }
        if !names.contains("host") { out += Array("Host: 127.0.0.1\r\n".utf8) }
        if !omitContentLength, !names.contains("content-length"), !names.contains("transfer-encoding"),
           !body.isEmpty || method == "PUT" || method == "POST" {
            out += Array("Content-Length: \(body.count)\r\n".utf8)
        }
        out += Array("Connection: close\r\n\r\n".utf8)
        return out + body
    }

    /// `METHOD target` and the start of the body, bytes outside printable ASCII escaped, each
    /// cut to `limit` characters.
    func summary(limit: Int = 160) -> String {
        var text = method + " " + Self.escaped(target, limit: limit)
        if !body.isEmpty { text += " body " + Self.escaped(body, limit: limit) }
        return text
    }

    /// The request target has bytes a request line may not carry raw (spaces, controls,
    /// non-ASCII), so the HTTP layer may refuse it before the server sees it.
    var targetIsInvalid: Bool { target.contains { !(0x21...0x7E).contains($0) } }

    /// The path names an attachment (`/db/doc/name`, `/db/_design/x/name`), which comes
    /// back with whatever content type it was stored with.
    var isAttachmentPath: Bool {
        let path = target.split(separator: UInt8(ascii: "?"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        var segments: [String] = []
        for piece in String(decoding: path, as: UTF8.self).split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            guard let decoded = piece.removingPercentEncoding else { return false }
            segments.append(decoded)
        }
        if segments.last == "" { segments.removeLast() }
        guard segments.count >= 2, !segments[0].hasPrefix("_") else { return false }
        var rest = Array(segments.dropFirst())
        if rest[0].hasPrefix("_design/") || rest[0].hasPrefix("_local/") {
            rest.replaceSubrange(0...0, with: rest[0].split(separator: "/", maxSplits: 1).map(String.init))
        }
        switch rest[0] {
        case "_local": return false
        case "_design": return rest.count >= 3
        case let name where name.hasPrefix("_"): return false
        default: return rest.count >= 2
        }
    }

    private static func escaped(_ bytes: [UInt8], limit: Int) -> String {
        var text = ""
        for byte in bytes {
            text += (0x20...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
            if text.count > limit { return text + "…" }
        }
        return text
    }
}
