import Foundation

/// One part of a MIME multipart body: its headers (names lowercased) and its bytes.
struct MultipartPart: Sendable, Equatable {
    /// Header names lowercased, values trimmed.
    var headers: [String: String]
    /// The part's body bytes.
    var body: Data

    /// The part's `Content-Type`, if given.
    var contentType: String? { headers["content-type"] }

    /// The `filename` parameter of the part's `Content-Disposition`, if given.
    var fileName: String? {
        guard let disposition = headers["content-disposition"] else { return nil }
        return MediaTypeParameters.value(of: "filename", in: disposition)
    }
}

/// Reads `name=value` parameters (quoted or not) of a header such as `Content-Type`.
enum MediaTypeParameters {
    /// The value of parameter `name` in `header`, unquoted; `nil` when absent.
    static func value(of name: String, in header: String) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == name else { continue }
            var value = pair[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
        return nil
    }

    /// The bare media type of `header` (`multipart/related` of `multipart/related; boundary=x`), lowercased.
    static func mediaType(of header: String) -> String {
        header.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
    }
}
