import GRDB
import DocumentFormat

/// What SQLite reported when a datastore operation failed: its result codes, message and
/// statement, kept from GRDB's `DatabaseError` so a caller can tell a failure that goes away
/// on its own (another connection holds the write lock) from one that needs a person (a full
/// disk, a corrupt file, a read-only directory).
public struct SQLiteFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite's primary result code (`SQLITE_BUSY` is 5, `SQLITE_LOCKED` 6, `SQLITE_FULL` 13).
    public let resultCode: Int32
    /// SQLite's extended result code, which refines the primary one.
    public let extendedResultCode: Int32
    /// SQLite's own message, when it gave one.
    public let message: String?
    /// The statement that failed, when there was one.
    public let sql: String?
    /// What the store was doing, when the failure happened outside a plain read or write
    /// (opening the file, say).
    public let context: String?

    /// Keeps what GRDB reported.
    init(_ error: DatabaseError, context: String? = nil) {
        resultCode = error.resultCode.rawValue
        extendedResultCode = error.extendedResultCode.rawValue
        message = error.message
        sql = error.sql
        self.context = context
    }

    /// Whether the failure is another connection holding the lock longer than the store
    /// waits (`SQLITE_BUSY`, `SQLITE_LOCKED`): the same operation can succeed when retried.
    public var isTransient: Bool {
        resultCode == ResultCode.SQLITE_BUSY.rawValue || resultCode == ResultCode.SQLITE_LOCKED.rawValue
    }

    /// SQLite's message with its code, the statement and the context.
    public var description: String {
        var text = "SQLite error \(resultCode)"
        if let message { text += ": \(message)" }
        if let sql { text += " (while running \(sql))" }
        if let context { text = "\(context): \(text)" }
        return text
    }
}
