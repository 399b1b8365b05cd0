/// An object whose row holds several concurrent versions (typically after a replication
/// pull), as ``IncrementalStore/replicaConflicts()`` reports it: the winning row every
/// replica agrees on and the other live rows.
public struct ReplicaConflict: Sendable {
    /// The object.
    public var objectID: ObjectID
    /// The row of the winning version (the one the store serves). Every replica picks the
    /// same winner, so resolving by it converges.
    public var winner: RowSnapshot
    /// The rows of the other live versions, in the store's deterministic order.
    public var others: [RowSnapshot]
    /// The version written on this replica, when the store knows one of the versions to be
    /// (`nil` when it did not write any of them).
    public var localVersion: RowVersion?
    /// Properties whose values differ between the winner and some other version.
    public var conflictingProperties: Set<String>

    /// Makes a conflict report (stores build these; policies read them).
    public init(objectID: ObjectID, winner: RowSnapshot, others: [RowSnapshot], localVersion: RowVersion?, conflictingProperties: Set<String>) {
        self.objectID = objectID
        self.winner = winner
        self.others = others
        self.localVersion = localVersion
        self.conflictingProperties = conflictingProperties
    }
}
