import DocumentStore
public import DocumentFormat

/// A position in a database's changes feed, exactly as that database wrote it.
///
/// CouchDB 2+ sequences are opaque strings (`"8-g1AAAA…"`), CouchDB 1.x and local stores
/// use numbers; a replicator must store and echo them, never parse or compare them. Only the
/// peer that issued a sequence may look inside it.
public struct ReplicationSequence: Sendable, Hashable, CustomStringConvertible {
    /// The sequence as JSON (a string, a number, or for old servers an array).
    public let value: JSONValue

    /// Wraps a sequence value as read from a changes feed or a checkpoint.
    public init(_ value: JSONValue) { self.value = value }

    /// The start of every changes feed.
    public static let zero = ReplicationSequence(.int(0))

    /// The text to put in a `since=` query parameter: strings verbatim, numbers in decimal,
    /// anything else as its JSON text.
    public var queryText: String {
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .double(let number) where number.rounded() == number && abs(number) < 9.2e18: return String(Int64(number))
        default: return String(decoding: JSONWriter.couchDB.data(value), as: UTF8.self)
        }
    }

    /// The sequence's text form, for logs and summaries.
    public var description: String { queryText }
}
