/// What a context posts after a successful save: the IDs it inserted, updated and deleted.
/// Hand it to ``ObjectContext/mergeChanges(from:)`` of another context to bring that
/// context up to date.
public struct SaveNotification: Sendable, Hashable {
    /// Objects inserted by the save (permanent IDs).
    public let inserted: Set<ObjectID>
    /// Objects updated by the save.
    public let updated: Set<ObjectID>
    /// Objects deleted by the save.
    public let deleted: Set<ObjectID>

    /// Creates a notification.
    public init(inserted: Set<ObjectID>, updated: Set<ObjectID>, deleted: Set<ObjectID>) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }
}
