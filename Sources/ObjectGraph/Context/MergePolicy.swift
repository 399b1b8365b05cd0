/// How a context resolves optimistic-locking conflicts when it saves.
///
/// To-many relationships are merged three-way under the trump policies (the store's
/// destinations, minus what this context removed, plus what it added), so two contexts
/// adding to the same relationship both keep their additions.
public enum MergePolicy: Sendable {
    /// Fail the save with ``ObjectGraphError/mergeConflicts(_:)`` (the default).
    case error
    /// Properties changed in the store win; this context's other changes are kept.
    case storeTrumps
    /// This context's values win and overwrite the store (a row deleted in the store is
    /// written again).
    case objectTrumps
    /// This context's changes to conflicting objects are discarded; they take the store's
    /// state (objects deleted in the store leave the context).
    case rollback
    /// The closure decides per conflict.
    case custom(@Sendable (MergeConflict) -> MergeResolution)
}

/// One conflict as a ``MergePolicy/custom(_:)`` closure sees it.
public struct MergeConflict: Sendable {
    /// The store's report.
    public let conflict: SaveConflict
    /// The attribute values this context wants to write (its changed attributes only).
    public let localChanges: [String: AttributeValue]
}

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
