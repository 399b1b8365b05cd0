import GRDB
import DocumentFormat

/// Async access to a store for code that runs on Swift concurrency's few shared threads (the
/// HTTP server, the replicator): `body` runs on one of GRDB's own connections and queues,
/// not on the caller's thread, and the task waits without holding a thread meanwhile.
extension DocumentStore {
    /// Runs `body` with one of the store's reader connections, as one snapshot: every read
    /// `body` makes through the ``StoreReader`` it is given sees the same committed state,
    /// and writes elsewhere do not wait for it. What `body` throws comes out as it is, but
    /// for SQLite's failures, which become ``DocumentStoreError/sqlite(_:)``.
    public func withReader<T: Sendable>(_ body: @escaping @Sendable (StoreReader) throws -> T) async throws -> T {
        do {
            return try await database.read { db in try body(StoreReader(store: self, db: db)) }
        } catch let error as DatabaseError {
            throw DocumentStoreError.sqlite(SQLiteFailure(error))
        }
    }

    /// Runs `body` with the store's writer connection: each write `body` makes through the
    /// ``StoreWriter`` it is given is a transaction of its own, and its reads see what it
    /// wrote. Other writers wait until `body` returns, so keep it short.
    public func withWriter<T: Sendable>(_ body: @escaping @Sendable (StoreWriter) throws -> T) async throws -> T {
        do {
            return try await database.writeWithoutTransaction { db in try body(StoreWriter(store: self, db: db)) }
        } catch let error as DatabaseError {
            throw DocumentStoreError.sqlite(SQLiteFailure(error))
        }
    }
}
