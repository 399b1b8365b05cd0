/// An opaque value a store returns from ``IncrementalStore/changeToken()``: it changes
/// whenever a committed write (by this process or another one sharing the store's file, or
/// a replicator) may have changed rows, so a watcher can tell cheaply that it must look again.
///
/// The store chooses its form (a document store's last changes-feed sequence, a counter);
/// callers only compare two tokens for equality.
public struct StoreChangeToken: Sendable, Hashable, CustomStringConvertible {
    /// The store's value.
    public let value: String

    /// Wraps a store value.
    public init(_ value: String) { self.value = value }

    /// The value.
    public var description: String { value }
}
