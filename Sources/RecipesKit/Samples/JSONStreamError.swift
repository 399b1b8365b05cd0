/// Why a ``JSONStreamReader`` stopped. Its callers do not show these to people: a file that
/// cannot be streamed is read whole instead, and that reading names the fault.
enum JSONStreamError: Error, Sendable, Equatable {
    /// The file could not be opened or read.
    case unreadable(String)
    /// The text is not JSON, or not shaped as the caller expects, at this byte offset.
    case unexpected(String, offset: Int)
}
