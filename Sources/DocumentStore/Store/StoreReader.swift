import GRDB

/// A reader connection of a store, held for the length of the body it is handed to (by
/// ``DocumentStore/withSnapshot(_:)`` or ``DocumentStore/withReader(_:)``): every read made
/// through it sees one committed state, in one read transaction. It cannot write, and it
/// is only valid inside that body (it is not `Sendable`, so it cannot leave the body's
/// thread).
public struct StoreReader: DocumentStoreReading {
    /// The held connection.
    public let connection: StoreConnection

    /// A reader over `db`, a connection of `store` the caller holds.
    init(store: DocumentStore, db: Database) {
        connection = StoreConnection(store: store, held: db)
    }

    /// The store this reads.
    public var store: DocumentStore { connection.store }
}
