/// One conflict as a ``MergePolicy/custom(_:)`` closure sees it.
public struct MergeConflict: Sendable {
    /// The store's report.
    public let conflict: SaveConflict
    /// The attribute values this context wants to write (its changed attributes only).
    public let localChanges: [String: AttributeValue]
}
