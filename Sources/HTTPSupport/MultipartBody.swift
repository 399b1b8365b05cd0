public import Foundation

/// A MIME multipart body (`multipart/related`, `multipart/mixed`) split into its parts, as
/// CouchDB sends `open_revs` replies and as its replicator uploads a document with attachments.
///
/// Both line ends are read (CRLF, and the bare LF some clients write). A part that announces
/// a `Content-Length` must have exactly that many bytes before the next boundary, so a body
/// cut short or padded is refused rather than misread. The bytes of each part are slices of
/// the given `Data`, so a large attachment is held once.
public struct MultipartBody: Sendable {
    /// The parts, in order.
    public let parts: [MultipartPart]

    /// Splits `data` on the boundary named in `contentType` (`multipart/…; boundary=…`).
    /// - Throws: ``MultipartFormatError`` when the type is not multipart, names no boundary,
    ///   or the body is malformed.
    public init(data: Data, contentType: String) throws(MultipartFormatError) {
        guard HeaderParameters.mediaType(of: contentType).hasPrefix("multipart/") else {
            throw MultipartFormatError("Content-Type \(contentType) is not multipart")
        }
        guard let boundary = HeaderParameters.value(of: "boundary", in: contentType), !boundary.isEmpty else {
            throw MultipartFormatError("multipart Content-Type without a boundary (\(contentType))")
        }
        try self.init(data: data, boundary: boundary)
    }

    /// Splits `data` on `boundary`: an optional preamble, `--boundary` lines each followed by
    /// headers, a blank line and the bytes, and a closing `--boundary--`.
    /// - Throws: ``MultipartFormatError`` when a delimiter is missing, a header line is
    ///   malformed, a `Content-Length` does not match, or the body is cut short.
    public init(data: Data, boundary: String) throws(MultipartFormatError) {
        let scanner = Scanner(boundary: boundary)
        let result = data.withUnsafeBytes { raw in
            Result { () throws(MultipartFormatError) in try scanner.scan(raw.bindMemory(to: UInt8.self)) }
        }
        let base = data.startIndex
        parts = try result.get().map { MultipartPart(headers: $0.headers, body: data[(base + $0.range.lowerBound)..<(base + $0.range.upperBound)]) }
    }

    /// The byte-level reading, on offsets from the start of the body.
    private struct Scanner {
        /// `--boundary`, which opens the body and each part.
        let delimiter: [UInt8]
        /// `\n--boundary`, which ends a part (with the CR before it, when there is one).
        let separator: [UInt8]

        init(boundary: String) {
            delimiter = Array("--\(boundary)".utf8)
            separator = [UInt8(ascii: "\n")] + delimiter
        }

        func scan(_ bytes: UnsafeBufferPointer<UInt8>) throws(MultipartFormatError) -> [(headers: [String: String], range: Range<Int>)] {
            let count = bytes.count
            // The first delimiter opens the body, or ends a preamble line.
            var position: Int
            if matches(bytes, at: 0, delimiter) {
                position = delimiter.count
            } else if let next = find(separator, in: bytes, from: 0) {
                position = next + separator.count
            } else {
                throw MultipartFormatError("multipart body without its opening boundary (truncated or not multipart)", at: 0)
            }
            var found: [(headers: [String: String], range: Range<Int>)] = []
            while true {
                // `--` right after a delimiter closes the body.
                if matches(bytes, at: position, [UInt8(ascii: "-"), UInt8(ascii: "-")]) { return found }
                // Transport padding, then the end of the delimiter line.
                while position < count, bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\t") {
                    position += 1
                }
                position = try skipLineEnd(bytes, at: position)
                var headers: [String: String] = [:]
                while true {
                    guard let end = lineEnd(bytes, from: position) else {
                        throw MultipartFormatError("multipart part headers are cut short", at: position)
                    }
                    if end == position {
                        position = try skipLineEnd(bytes, at: position)
                        break
                    }
                    let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
                    guard let colon = line.firstIndex(of: ":") else {
                        throw MultipartFormatError("malformed multipart header line \(line.prefix(80).debugDescription)", at: position)
                    }
                    let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                    headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    position = try skipLineEnd(bytes, at: end)
                }
                let bodyStart = position
                let bodyEnd: Int
                if let announced = headers["content-length"] {
                    guard let length = Int(announced), length >= 0 else {
                        throw MultipartFormatError("multipart part with an invalid Content-Length \(announced)", at: position)
                    }
                    guard position + length + separator.count <= count else {
                        throw MultipartFormatError("multipart part announces \(length) bytes but the body is cut short", at: count)
                    }
                    bodyEnd = position + length
                    let lineBreak = matches(bytes, at: bodyEnd, [13]) ? 1 : 0
                    guard matches(bytes, at: bodyEnd + lineBreak, separator) else {
                        throw MultipartFormatError("multipart part is not \(length) bytes long as its Content-Length says", at: bodyEnd)
                    }
                    position = bodyEnd + lineBreak + separator.count
                } else {
                    guard let next = find(separator, in: bytes, from: position) else {
                        throw MultipartFormatError("multipart body is cut short (no boundary after a part)", at: count)
                    }
                    bodyEnd = next > bodyStart && bytes[next - 1] == 13 ? next - 1 : next
                    position = next + separator.count
                }
                found.append((headers, bodyStart..<bodyEnd))
                if position + 2 > count {
                    throw MultipartFormatError("multipart body is cut short (no closing boundary)", at: count)
                }
            }
        }

        private func matches(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, _ pattern: [UInt8]) -> Bool {
            guard offset >= 0, offset + pattern.count <= bytes.count else { return false }
            return pattern.withUnsafeBytes { memcmp(bytes.baseAddress! + offset, $0.baseAddress!, pattern.count) == 0 }
        }

        /// The offset of the next occurrence of `pattern` at or after `start`.
        private func find(_ pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
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

        /// The offset of the CR (of a CRLF) or the bare LF ending the line that starts at `start`.
        private func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
            var offset = start
            while offset < bytes.count {
                if bytes[offset] == 10 { return offset }
                if bytes[offset] == 13, offset + 1 < bytes.count, bytes[offset + 1] == 10 { return offset }
                offset += 1
            }
            return nil
        }

        private func skipLineEnd(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws(MultipartFormatError) -> Int {
            if matches(bytes, at: offset, [13, 10]) { return offset + 2 }
            if matches(bytes, at: offset, [10]) { return offset + 1 }
            throw MultipartFormatError(offset >= bytes.count ? "multipart body is cut short" : "multipart line does not end where expected", at: offset)
        }
    }
}
