import GRDB
import GRDBSQLite

extension Database {
    /// The most arguments a query statement may bind and still be kept prepared: a plan's
    /// SQL repeats for every fetch of the same shape (one recipe's ingredients, one type's
    /// recipes), but an `IN` list of many values has one placeholder per value, and keeping
    /// a statement for every length would grow the cache without bound.
    static let reusableArgumentLimit = 16

    /// A prepared statement for `sql`, kept on this connection and reused by the next query
    /// of the same text, so a fetch does not parse, plan and authorize its SQL again each
    /// time. `GRDB`'s own cache hands back the same statement even while a cursor is still
    /// stepping through it; a caller reading the rows of a query may run another one of the
    /// same text meanwhile (a sub-query, or the caller's body of `forEachMatch`), which would
    /// reset the first. A statement that is busy is therefore not reused: a new one is
    /// prepared for this use alone. With more than ``reusableArgumentLimit`` arguments the
    /// statement is prepared for this use alone too.
    func reusableStatement(sql: String, argumentCount: Int) throws -> Statement {
        guard argumentCount <= Self.reusableArgumentLimit else { return try makeStatement(sql: sql) }
        let cached = try cachedStatement(sql: sql)
        if sqlite3_stmt_busy(cached.sqliteStatement) != 0 { return try makeStatement(sql: sql) }
        return cached
    }
}
