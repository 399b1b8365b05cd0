import InteropSupport
import DocumentStore
import Foundation
import DocumentFormat

/// A deliberately simple multipart reader for the tests, independent of the server's parser:
/// finds the document JSON and the attachment bytes in a multipart/mixed or multipart/related
/// reply (nested at most one level, as CouchDB nests them).
enum MultipartTestParser {
    struct Found {
        var json: JSONValue?
        var attachments: [String: Data] = [:]
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    static func boundary(of contentType: String) throws -> String {
        guard let range = contentType.range(of: "boundary=") else { throw Malformed(description: "no boundary in \(contentType)") }
        return contentType[range.upperBound...].split(separator: ";").first!.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
    }

    static func attachmentParts(_ body: Data, contentType: String) throws -> Found {
        var found = Found()
        for (headers, content) in try split(body, boundary: boundary(of: contentType)) {
            let type = headers["content-type"] ?? ""
            if type.hasPrefix("multipart/") {
                let inner = try attachmentParts(content, contentType: type)
                found.json = found.json ?? inner.json
                found.attachments.merge(inner.attachments) { first, _ in first }
            } else if type.hasPrefix("application/json") && found.json == nil {
                found.json = try JSONDecoder().decode(JSONValue.self, from: content)
            } else if let disposition = headers["content-disposition"], let range = disposition.range(of: "filename=\"") {
                let name = disposition[range.upperBound...].prefix { $0 != "\"" }
                found.attachments[String(name)] = content
            }
        }
        return found
    }

    /// Parts as (lowercased headers, bytes).
    static func split(_ body: Data, boundary: String) throws -> [([String: String], Data)] {
        let bytes = [UInt8](body)
        let marker = [UInt8]("--\(boundary)".utf8)
        var starts = [Int]()
        var index = 0
        while index + marker.count <= bytes.count {
            if Array(bytes[index..<(index + marker.count)]) == marker { starts.append(index); index += marker.count } else { index += 1 }
        }
        guard starts.count >= 2 else { throw Malformed(description: "fewer than two boundaries") }
        var parts = [([String: String], Data)]()
        for (start, end) in zip(starts, starts.dropFirst()) {
            var chunk = Array(bytes[(start + marker.count)..<end])
            if chunk.starts(with: [13, 10]) { chunk.removeFirst(2) }
            if chunk.suffix(2) == [13, 10] { chunk.removeLast(2) }
            guard let blank = (0..<max(0, chunk.count - 3)).first(where: { chunk[$0..<($0 + 4)] == [13, 10, 13, 10] }) else {
                // A part with no headers starts with the blank line itself.
                if chunk.starts(with: [13, 10]) { parts.append(([:], Data(chunk.dropFirst(2)))); continue }
                throw Malformed(description: "part without header terminator")
            }
            var headers = [String: String]()
            for line in String(decoding: chunk[0..<blank], as: UTF8.self).components(separatedBy: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            parts.append((headers, Data(chunk[(blank + 4)...])))
        }
        return parts
    }
}
