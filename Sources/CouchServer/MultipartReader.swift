import Foundation

/// Splits a MIME multipart body (`multipart/related`, `multipart/mixed`) into its parts, as
/// CouchDB's replicator sends a document with its attachments.
enum MultipartReader {
    /// The parts of `body` delimited by `boundary`; 400 `bad_request` when the body is not
    /// well-formed multipart (no opening or closing delimiter, a part without a header block).
    static func parts(of body: Data, boundary: String) throws -> [MultipartPart] {
        let body = Data(body)  // zero-based indices
        let delimiter = Data("--\(boundary)".utf8)
        let separator = Data("\n--\(boundary)".utf8)
        guard var position = body.range(of: delimiter)?.upperBound else {
            throw CouchError.badRequest("multipart body has no boundary delimiter")
        }
        var parts = [MultipartPart]()
        while true {
            // "--" right after a delimiter closes the body.
            if body.count >= position + 2, body[position] == UInt8(ascii: "-"), body[position + 1] == UInt8(ascii: "-") {
                return parts
            }
            position = skipLineEnd(body, position)
            guard let next = body.range(of: separator, in: position..<body.count) else {
                throw CouchError.badRequest("multipart body is missing its closing boundary")
            }
            var end = next.lowerBound
            if end > position, body[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            parts.append(try part(body.subdata(in: position..<max(position, end))))
            position = next.upperBound
        }
    }

    private static func part(_ bytes: Data) throws -> MultipartPart {
        var headers = [String: String]()
        var position = 0
        while true {
            guard let lineEnd = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) else {
                throw CouchError.badRequest("multipart part has no blank line after its headers")
            }
            var line = bytes[position..<lineEnd]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            position = lineEnd + 1
            if line.isEmpty { break }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else {
                throw CouchError.badRequest("multipart header line without a colon")
            }
            headers[text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] =
                text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return MultipartPart(headers: headers, body: bytes.subdata(in: position..<bytes.count))
    }

    private static func skipLineEnd(_ bytes: Data, _ position: Int) -> Int {
        var index = position
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "\r") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "\n") { index += 1 }
        return index
    }
}
