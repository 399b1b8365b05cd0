/// Everything one context save writes; a store applies it all or nothing.
public struct StoreSaveRequest: Sendable, Hashable {
    /// New objects.
    public var inserted: [ObjectChange]
    /// Changed objects.
    public var updated: [ObjectChange]
    /// Deleted objects.
    public var deleted: [ObjectDeletion]

    /// Creates a request.
    public init(inserted: [ObjectChange], updated: [ObjectChange], deleted: [ObjectDeletion]) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// Whether there is nothing to write.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}
