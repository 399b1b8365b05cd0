public import Foundation

/// One part of a MIME multipart body: its headers and its bytes.
public struct MultipartPart: Sendable, Equatable {
    /// Header values by lowercased name, trimmed.
    public var headers: [String: String]
    /// The bytes between the blank line after the headers and the next boundary. When read by
    /// ``MultipartBody`` they are a slice of the whole body, sharing its storage, so a large
    /// attachment is held once, as received.
    public var body: Data

    /// Makes a part from its headers (names lowercased) and bytes.
    public init(headers: [String: String], body: Data) {
        self.headers = headers
        self.body = body
    }

    /// The part's `Content-Type`, if given.
    public var contentType: String? { headers["content-type"] }

    /// The media type of `Content-Type`, lowercased and without parameters (`text/plain`
    /// when absent, as MIME defines).
    public var mediaType: String { HeaderParameters.mediaType(of: contentType ?? "text/plain") }

    /// The `filename` parameter of the part's `Content-Disposition`, unescaped, if given.
    public var fileName: String? {
        headers["content-disposition"].flatMap { HeaderParameters.value(of: "filename", in: $0) }
    }
}
