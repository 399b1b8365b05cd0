import Foundation

/// A MIME multipart body (`multipart/mixed`, `multipart/related`) as CouchDB sends it for
/// `open_revs` with `Accept: multipart/mixed`: parts split on the boundary, each with its
/// headers and its bytes.
///
/// The bytes of each part are slices of the reply's `Data`, sharing its storage, so a large
/// attachment is held once (as received) rather than copied out part by part.
struct MultipartBody {
    /// One part: headers (names lower-cased) and the bytes between the blank line after the
    /// headers and the next boundary.
    struct Part {
        /// Header values by lower-cased name.
        var headers: [String: String]
        /// The part's bytes, a slice of the whole body.
        var body: Data

        /// The media type of `Content-Type`, lower-cased and without parameters
        /// (`text/plain` when absent, as MIME defines).
        var mediaType: String { MultipartBody.mediaType(of: headers["content-type"] ?? "text/plain") }

        /// The `filename` of a `Content-Disposition: attachment; filename="…"` header.
        var filename: String? {
            headers["content-disposition"].flatMap { MultipartBody.parameter("filename", in: $0) }
        }
    }

    /// Why a body could not be split into parts.
    struct FormatError: Error, CustomStringConvertible {
        let description: String
    }

    /// The parts, in order.
    let parts: [Part]

    /// Splits `data` on the boundary named in `contentType` (`multipart/…; boundary=…`).
    init(data: Data, contentType: String) throws {
        guard Self.mediaType(of: contentType).hasPrefix("multipart/") else {
            throw FormatError(description: "Content-Type \(contentType) is not multipart")
        }
        guard let boundary = Self.parameter("boundary", in: contentType), !boundary.isEmpty else {
            throw FormatError(description: "multipart Content-Type without a boundary (\(contentType))")
        }
        try self.init(data: data, boundary: boundary)
    }

    /// Splits `data` on `boundary`: an optional preamble, `--boundary` lines each followed by
    /// headers, a blank line and the bytes, and a closing `--boundary--`. A part that
    /// announces a `Content-Length` must have exactly that many bytes before the next
    /// boundary; a body without its closing boundary is reported as cut short.
    init(data: Data, boundary: String) throws {
        let delimiter = Array("--\(boundary)".utf8)
        let separator = Array("\r\n--\(boundary)".utf8)
        let base = data.startIndex
        let count = data.count
        var found: [Part] = []
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            // The first delimiter opens the body, or ends a preamble line.
            var position: Int
            if Self.matches(bytes, at: 0, delimiter) {
                position = delimiter.count
            } else if let next = Self.find(separator, in: bytes, from: 0) {
                position = next + separator.count
            } else {
                throw FormatError(description: "multipart body without its opening boundary (truncated or not multipart)")
            }
            while true {
                if Self.matches(bytes, at: position, Array("--".utf8)) { return }
                // Transport padding, then the end of the delimiter line.
                while position < count, bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\t") {
                    position += 1
                }
                position = try Self.skipLineEnd(bytes, at: position)
                var headers: [String: String] = [:]
                while true {
                    guard let end = Self.lineEnd(bytes, from: position) else {
                        throw FormatError(description: "multipart part headers are cut short")
                    }
                    if end == position {
                        position = try Self.skipLineEnd(bytes, at: position)
                        break
                    }
                    let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
                    guard let colon = line.firstIndex(of: ":") else {
                        throw FormatError(description: "malformed multipart header line \(line.prefix(80).debugDescription)")
                    }
                    let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                    headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    position = try Self.skipLineEnd(bytes, at: end)
                }
                let bodyEnd: Int
                if let announced = headers["content-length"] {
                    guard let length = Int(announced), length >= 0 else {
                        throw FormatError(description: "multipart part with an invalid Content-Length \(announced)")
                    }
                    guard position + length + separator.count <= count else {
                        throw FormatError(description: "multipart part announces \(length) bytes but the body is cut short")
                    }
                    guard Self.matches(bytes, at: position + length, separator) else {
                        throw FormatError(description: "multipart part is not \(length) bytes long as its Content-Length says")
                    }
                    bodyEnd = position + length
                } else {
                    guard let next = Self.find(separator, in: bytes, from: position) else {
                        throw FormatError(description: "multipart body is cut short (no boundary after a part)")
                    }
                    bodyEnd = next
                }
                found.append(Part(headers: headers, body: data[(base + position)..<(base + bodyEnd)]))
                position = bodyEnd + separator.count
                if position + 2 > count {
                    throw FormatError(description: "multipart body is cut short (no closing boundary)")
                }
            }
        }
        parts = found
    }

    /// The media type of a `Content-Type` value: lower-cased, parameters dropped.
    static func mediaType(of contentType: String) -> String {
        let type = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// A parameter of a header value (`name=value` or `name="value"`), matched without case.
    static func parameter(_ name: String, in value: String) -> String? {
        for piece in value.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == name else { continue }
            var text = pair[1].trimmingCharacters(in: .whitespaces)
            if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
                text = String(text.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
            }
            return text
        }
        return nil
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, _ pattern: [UInt8]) -> Bool {
        guard offset >= 0, offset + pattern.count <= bytes.count else { return false }
        return pattern.withUnsafeBytes { memcmp(bytes.baseAddress! + offset, $0.baseAddress!, pattern.count) == 0 }
    }

    /// The offset of the next occurrence of `pattern` at or after `start`.
    private static func find(_ pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let first = pattern.first, let base = bytes.baseAddress else { return nil }
        var offset = start
        let last = bytes.count - pattern.count
        while offset <= last {
            guard let hit = memchr(base + offset, Int32(first), last - offset + 1) else { return nil }
            let index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if matches(bytes, at: index, pattern) { return index }
            offset = index + 1
        }
        return nil
    }

    /// The offset of the CR (or bare LF) ending the line that starts at `start`.
    private static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var offset = start
        while offset < bytes.count {
            if bytes[offset] == UInt8(ascii: "\n") { return offset }
            if bytes[offset] == UInt8(ascii: "\r"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "\n") { return offset }
            offset += 1
        }
        return nil
    }

    private static func skipLineEnd(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws -> Int {
        if matches(bytes, at: offset, [13, 10]) { return offset + 2 }
        if matches(bytes, at: offset, [10]) { return offset + 1 }
        throw FormatError(description: offset >= bytes.count ? "multipart body is cut short" : "multipart line does not end where expected")
    }
}
