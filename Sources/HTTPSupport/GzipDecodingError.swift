/// Why ``GzipDecoding`` could not inflate a body: each case says what a caller needs to word
/// its own refusal (CouchProtocol turns them into 400 `bad_request` replies).
public enum GzipDecodingError: Error, Sendable, Equatable {
    /// zlib could not start inflating (out of memory, or a library mismatch).
    case cannotStart
    /// The bytes would inflate past `limit` bytes.
    case tooLong(limit: Int)
    /// The bytes are not a complete gzip stream; `zlibStatus` is zlib's code for why.
    case incomplete(zlibStatus: Int)
}
