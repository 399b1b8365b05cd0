import Foundation

/// Builds MIME multipart bodies the way CouchDB writes them: CRLF line ends, each part's
/// headers, a blank line, its bytes, and a closing `--boundary--`.
struct MultipartWriter {
    /// The boundary string (without the leading dashes).
    let boundary: String
    private(set) var data = Data()

    /// Starts a body with a fresh random boundary.
    init() {
        boundary = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// The `Content-Type` header value for this body, e.g. `multipart/mixed; boundary="…"`.
    func contentType(_ subtype: String) -> String {
        "multipart/\(subtype); boundary=\"\(boundary)\""
    }

    /// Appends one part.
    mutating func append(headers: [(String, String)], body: Data) {
        data.append(contentsOf: "--\(boundary)\r\n".utf8)
        for (name, value) in headers { data.append(contentsOf: "\(name): \(value)\r\n".utf8) }
        data.append(contentsOf: "\r\n".utf8)
        data.append(body)
        data.append(contentsOf: "\r\n".utf8)
    }

    /// Closes the body and returns it.
    consuming func finish() -> Data {
        data.append(contentsOf: "--\(boundary)--".utf8)
        return data
    }
}
