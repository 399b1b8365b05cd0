import GRDB
import DocumentFormat

/// Async access to a store for code that runs on Swift concurrency's few shared threads (the
/// HTTP server, the replicator): the store's synchronous calls inside `body` run on one of
/// GRDB's own database connections and queues, not on the caller's thread, and the task
/// waits without holding a thread meanwhile.
extension DocumentStore {
    /// Runs `body` on one of the store's reader connections, as one snapshot: every read
    /// `body` makes of this store sees the same committed state, and writes elsewhere do not
    /// wait for it. A write inside `body` is refused; use ``withWriter(_:)`` for that. What
    /// `body` throws comes out as it is, but for SQLite's failures, which become
    /// ``DocumentStoreError/sqlite(_:)``.
    public func withReader<T: Sendable>(_ body: @escaping @Sendable (DocumentStore) throws -> T) async throws -> T {
        let scope = AccessScope(store: ObjectIdentifier(self), writes: false)
        do {
            return try await database.read { _ in try AccessScope.$current.withValue(scope) { try body(self) } }
        } catch let error as DatabaseError {
            throw DocumentStoreError.sqlite(SQLiteFailure(error))
        }
    }

    /// Runs `body` on the store's writer connection: each write `body` makes is a transaction
    /// of its own (a savepoint, inside ``inTransaction(_:)``), and its reads see what it
    /// wrote. Other writers of this process wait until `body` returns, so keep it short.
    public func withWriter<T: Sendable>(_ body: @escaping @Sendable (DocumentStore) throws -> T) async throws -> T {
        let scope = AccessScope(store: ObjectIdentifier(self), writes: true)
        do {
            return try await database.writeWithoutTransaction { _ in try AccessScope.$current.withValue(scope) { try body(self) } }
        } catch let error as DatabaseError {
            throw DocumentStoreError.sqlite(SQLiteFailure(error))
        }
    }
}

/// Which store's connection the current ``DocumentStore/withReader(_:)`` or
/// ``DocumentStore/withWriter(_:)`` holds, so the synchronous calls made inside it use that
/// connection instead of asking GRDB for another (which GRDB forbids from inside one).
struct AccessScope: Sendable {
    /// The store whose connection is held.
    let store: ObjectIdentifier
    /// Whether it is the writer connection.
    let writes: Bool

    /// The scope of the code running now, if any.
    @TaskLocal static var current: AccessScope?
}
