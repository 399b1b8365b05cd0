/// Why a body could not be read as MIME multipart: no boundary, cut short, a malformed header
/// line, or a part whose `Content-Length` does not match its bytes.
///
/// CouchDB's server answers it with 400 `bad_request`, its client reports it as a malformed
/// reply, and a web form that cannot be read is refused with it.
public struct MultipartFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, in a sentence.
    public let description: String

    /// Makes an error saying `description`.
    public init(_ description: String) {
        self.description = description
    }

    /// Makes an error saying `reason`, at byte `offset` of the body.
    public init(_ reason: String, at offset: Int) {
        self.description = "\(reason) at byte \(offset)"
    }
}
