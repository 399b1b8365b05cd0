/// Rows that changed in a store underneath its contexts (for example by replication).
public struct StoreChangeSet: Sendable, Hashable {
    /// Objects that appeared.
    public var inserted: Set<ObjectID>
    /// Objects whose rows changed.
    public var updated: Set<ObjectID>
    /// Objects that disappeared.
    public var deleted: Set<ObjectID>

    /// Creates a change set.
    public init(inserted: Set<ObjectID> = [], updated: Set<ObjectID> = [], deleted: Set<ObjectID> = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }
}
