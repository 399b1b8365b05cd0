/// A reply that parsed as JSON but does not have the shape its endpoint documents: a client
/// reading it refuses the whole reply, so a confused server can never half-apply a batch.
public struct ReplyShapeError: Error, Sendable, CustomStringConvertible {
    /// What was wrong.
    public let description: String

    /// Names what was wrong.
    public init(_ description: String) { self.description = description }
}
