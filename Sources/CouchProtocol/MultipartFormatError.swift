/// Why a body could not be read as MIME multipart: no boundary, cut short, a malformed header
/// line, or a part whose `Content-Length` does not match its bytes.
///
/// The server answers it with 400 `bad_request`; the client reports it as a malformed reply.
public struct MultipartFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, in a sentence.
    public let description: String

    /// Makes an error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
