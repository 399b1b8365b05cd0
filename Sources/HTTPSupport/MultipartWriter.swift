public import Foundation

/// Writes MIME multipart bodies the way CouchDB writes them: CRLF line ends, each part as
/// `--boundary`, its headers, a blank line and its bytes, and a closing `--boundary--` with
/// nothing after it.
///
/// The server writes `open_revs` and `_bulk_get` replies with it in memory; the client writes
/// `multipart/related` uploads with it into a file, streaming attachment bytes a chunk at a
/// time. Either way the framing and the attachment part headers are written here only.
public struct MultipartWriter<Output: MultipartOutput> {
    /// The boundary string (without the leading dashes).
    public let boundary: String
    /// The bytes written so far.
    public private(set) var output: Output
    /// Where the body has line breaks of its own besides the delimiters.
    public let framing: Framing
    private var partOpen = false

    /// The two ways CouchDB 3 frames a multipart body, byte for byte.
    public enum Framing: Sendable {
        /// `--b` first and nothing after the closing `--b--`: `open_revs` replies (also when
        /// nested) and `multipart/related` uploads.
        case tight
        /// A line break before the first delimiter and one after the closing delimiter:
        /// `_bulk_get` replies.
        case padded
    }

    /// Starts a body in `output` with `boundary` (a fresh random string, such as
    /// `RandomIdentifier.compactHex()`, that no part's bytes contain), framed as `framing` says.
    public init(output: Output, boundary: String, framing: Framing = .tight) {
        self.output = output
        self.boundary = boundary
        self.framing = framing
    }

    /// The `Content-Type` header value for this body: `multipart/<subtype>; boundary="…"`.
    public func contentType(_ subtype: String) -> String {
        "multipart/\(subtype); boundary=\(HeaderParameters.quoted(boundary))"
    }

    /// Starts a part with `headers` (name, value); its bytes follow with ``write(_:)``.
    public mutating func beginPart(headers: [(String, String)]) throws {
        var head = partOpen || framing == .padded ? "\r\n--\(boundary)\r\n" : "--\(boundary)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        partOpen = true
        try write(Array(head.utf8))
    }

    /// Appends bytes to the current part.
    public mutating func write(_ bytes: some DataProtocol) throws {
        try output.write(bytes)
    }

    /// Appends a whole part: its headers, then `body`.
    public mutating func appendPart(headers: [(String, String)], body: some DataProtocol) throws {
        try beginPart(headers: headers)
        try write(body)
    }

    /// Writes the closing delimiter and returns the output.
    ///
    /// The body ends right after `--boundary--`, with no line break, as CouchDB's own bodies
    /// do. This matters when a body is nested as a part of another (an `open_revs` reply's
    /// `multipart/related` document inside its `multipart/mixed` reply): CouchDB's replicator
    /// expects the outer `\r\n--outer` to follow the inner closing delimiter at once, and a
    /// line break between them makes it fail the whole document.
    public consuming func finish() throws -> Output {
        let close = (partOpen || framing == .padded ? "\r\n--\(boundary)--" : "--\(boundary)--") + (framing == .padded ? "\r\n" : "")
        try write(Array(close.utf8))
        return output
    }

    /// The headers of a part carrying the raw bytes of attachment `name`, as CouchDB names
    /// them: `Content-Disposition: attachment; filename="…"` (quoted and escaped, so any name
    /// reads back), `Content-Type` and `Content-Length`.
    public static func attachmentHeaders(name: String, contentType: String, length: Int) -> [(String, String)] {
        [
            ("Content-Disposition", "attachment; filename=\(HeaderParameters.quoted(name))"),
            ("Content-Type", contentType),
            ("Content-Length", String(length)),
        ]
    }
}
