/// An opaque per-row version token for optimistic locking.
///
/// The store chooses its form (an integer counter, a document revision such as
/// `3-9f2c…`); contexts only hand it back unchanged so the store can tell whether a row
/// changed since they read it.
public struct RowVersion: Sendable, Hashable, CustomStringConvertible {
    /// The store's token.
    public let token: String
    /// Wraps a store token.
    public init(_ token: String) { self.token = token }
    /// The token.
    public var description: String { token }
}
