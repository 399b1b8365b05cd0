import GRDB

/// The writer connection of a store, held for the length of the body it is handed to (by
/// ``DocumentStore/withWriter(_:)`` or ``DocumentStore/inTransaction(_:)``). Each write made
/// through it is a transaction of its own, or a savepoint of the transaction
/// ``DocumentStore/inTransaction(_:)`` keeps open; its reads see what it wrote. Other
/// writers of the file wait while a body holds it. It is only valid inside that body (it is
/// not `Sendable`).
public struct StoreWriter: DocumentStoreWriting {
    /// The held connection.
    public let connection: StoreConnection

    /// A writer over `db`, the writer connection of `store`, which the caller holds.
    init(store: DocumentStore, db: Database) {
        connection = StoreConnection(store: store, held: db)
    }

    /// The store this writes.
    public var store: DocumentStore { connection.store }
}
