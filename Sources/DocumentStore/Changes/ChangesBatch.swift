import DocumentFormat
/// A batch of the changes feed read after some sequence.
public struct ChangesBatch: Sendable {
    /// The changes in sequence order.
    public var changes: [Change]
    /// Sequence of the last change in the batch, or the `since` asked for when empty; pass it
    /// as the next `since`.
    public var lastSequence: Int64

    /// Makes a batch from its parts.
    public init(changes: [Change], lastSequence: Int64) {
        self.changes = changes
        self.lastSequence = lastSequence
    }
}
