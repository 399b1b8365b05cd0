/// What a custom merge policy decides for one conflict.
public enum MergeResolution: Sendable, Hashable {
    /// As ``MergePolicy/storeTrumps`` for this object.
    case storeTrumps
    /// As ``MergePolicy/objectTrumps`` for this object.
    case objectTrumps
    /// As ``MergePolicy/rollback`` for this object.
    case rollback
    /// Start from the store's row and write these attribute values over it.
    case merged([String: AttributeValue])
    /// Fail the save.
    case fail
}
