import GRDB

/// The connection a store call runs on: the store's own (each call takes a reader or the
/// writer for itself, as one transaction), or one a ``StoreReader`` or ``StoreWriter`` holds
/// for the length of a ``DocumentStore/withSnapshot(_:)``, ``DocumentStore/withReader(_:)``,
/// ``DocumentStore/withWriter(_:)`` or ``DocumentStore/inTransaction(_:)`` body, as GRDB hands
/// a body its `Database`. The operations of ``DocumentStoreReading`` and
/// ``DocumentStoreWriting`` are written once against it, so they run the same on either.
public struct StoreConnection {
    /// The store whose file is read or written.
    let store: DocumentStore
    /// The connection a body holds; `nil` for the store's own calls.
    let held: Database?

    /// Runs `body` on the held connection, or else on a reader snapshot of its own, keeping
    /// SQLite failures as `.sqlite`.
    func reading<T>(_ body: (Database) throws -> T) throws -> T {
        try store.mapped {
            if let held { return try body(held) }
            return try store.database.read(body)
        }
    }

    /// Runs `body` on the writer connection: on the held one in a transaction of its own, or
    /// a savepoint of the transaction open there (which it joins: it commits or rolls back
    /// with it); else in a write transaction of its own. SQLite failures stay `.sqlite`.
    func writingDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        try store.mapped {
            if let held { return try DocumentStore.inTransactionOrSavepoint(held, body) }
            return try store.database.write(body)
        }
    }

    /// Runs `body` as ``writingDatabase(_:)`` does, with a ``StoreTransaction`` over it whose
    /// counters are flushed before it commits.
    func writing<T>(_ body: (inout StoreTransaction) throws -> T) throws -> T {
        try writingDatabase { db in
            var txn = try StoreTransaction(db: db, revisionLimit: store.options.revisionLimit)
            let result = try body(&txn)
            try txn.flush()
            return result
        }
    }
}
