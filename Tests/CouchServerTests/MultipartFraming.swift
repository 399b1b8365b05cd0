import InteropSupport
import Foundation

/// The framing of a multipart reply with its contents taken out: boundaries renamed in the
/// order they appear (`B1`, `B2`, …), each JSON part shown as `{…}` and each part with a
/// `Content-Length` shown as `<N bytes>`. Everything else (line breaks, part headers, the
/// bytes after a closing delimiter) is kept, so two replies with the same framing give the
/// same string byte for byte, whatever their random boundaries and document bodies.
///
/// CouchDB's replicator reads nested multipart replies strictly (it expects the outer
/// delimiter right after an inner closing one), so our replies are compared with its own
/// replies at this level, not only parsed by a lenient reader.
enum MultipartFraming {
    static func skeleton(_ body: Data, contentType: String) throws -> String {
        guard var text = String(data: body, encoding: .isoLatin1) else { throw MultipartTestParser.Malformed(description: "not Latin-1") }
        var boundaries = [try MultipartTestParser.boundary(of: contentType)]
        var searchFrom = text.startIndex
        while let range = text.range(of: "boundary=", range: searchFrom..<text.endIndex) {
            let rest = text[range.upperBound...].drop { $0 == "\"" }
            boundaries.append(String(rest.prefix { $0 != "\"" && $0 != "\r" && $0 != "\n" && $0 != ";" }))
            searchFrom = range.upperBound
        }
        // Attachment bytes first (they may contain anything), then JSON parts, then names.
        var output = ""
        var cursor = text.startIndex
        while let header = text.range(of: "Content-Length: ", range: cursor..<text.endIndex) {
            let digits = text[header.upperBound...].prefix { $0.isNumber }
            guard let length = Int(digits), let blank = text.range(of: "\r\n\r\n", range: header.upperBound..<text.endIndex),
                  let end = text.index(blank.upperBound, offsetBy: length, limitedBy: text.endIndex) else {
                throw MultipartTestParser.Malformed(description: "part with a bad Content-Length")
            }
            output += text[cursor..<blank.upperBound] + "<\(length) bytes>"
            cursor = end
        }
        text = output + text[cursor...]
        text = text.replacingOccurrences(of: #"\r\n\r\n\{[^\r\n]*\}"#, with: "\r\n\r\n{…}", options: .regularExpression)
        for (index, boundary) in boundaries.enumerated() where !boundary.isEmpty {
            text = text.replacingOccurrences(of: boundary, with: "B\(index + 1)")
        }
        return text
    }
}
