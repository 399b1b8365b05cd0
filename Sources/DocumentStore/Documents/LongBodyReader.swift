import Foundation
import GRDB
import GRDBSQLite
import DocumentFormat

/// Reads some members of a long stored body from its beginning only.
///
/// SQLite hands over a column's whole value, however little of it is used: a recipe type's
/// name, read for a type list or a search, brought the type's list of every recipe with it
/// (650 KB a type at 100,000 recipes). A partial read (``Query/fields``) therefore selects
/// ``partialColumns``: a body longer than ``inlineLimit`` comes as NULL with its length, and
/// its members are read here from a growing prefix, through SQLite's incremental blob I/O.
/// Stored bodies are canonical, so the parse stops at the first key after the wanted ones
/// (``JSONParser/parseObject(_:keeping:)``), usually within the first few kilobytes.
enum LongBodyReader {
    /// Bodies up to this many bytes are read whole with their row.
    static let inlineLimit = 8192

    /// ``QueryPlan/columns`` for a partial read: the same columns, with a long body left out
    /// and its length added as a tenth column.
    static let partialColumns = """
        d.doc_id, d.seq, r.rev_num, r.rev, r.parent, r.deleted, r.leaf, \
        CASE WHEN length(r.body) > \(inlineLimit) THEN NULL ELSE r.body END, r.atts, length(r.body)
        """

    /// The first read of a long body; each further read takes four times as much.
    static let firstPrefix = 4096

    /// The members `keys` of the body of revision `revNum`, read from the beginning of the
    /// stored text until the parse has them.
    /// - Throws: `DatabaseError` when SQLite cannot read the body, `DocumentFormatError` when
    ///   the whole body is not a JSON object.
    static func members(_ keys: Set<String>, ofRevision revNum: Int64, in db: Database) throws -> JSONObject {
        guard let connection = db.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the database connection is closed")
        }
        var handle: OpaquePointer?
        let opened = sqlite3_blob_open(connection, "main", "revs", "body", revNum, 0, &handle)
        defer { sqlite3_blob_close(handle) }
        guard opened == SQLITE_OK, let blob = handle else {
            throw DatabaseError(resultCode: ResultCode(rawValue: opened), message: String(cString: sqlite3_errmsg(connection)))
        }
        let total = Int(sqlite3_blob_bytes(blob))
        var prefix = Data()
        var size = min(total, firstPrefix)
        while true {
            let start = prefix.count
            prefix.count = size
            let read = prefix.withUnsafeMutableBytes { raw in
                sqlite3_blob_read(blob, raw.baseAddress! + start, Int32(size - start), Int32(start))
            }
            guard read == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: read), message: String(cString: sqlite3_errmsg(connection)))
            }
            do {
                return try JSONParser.parseObject(prefix, keeping: keys)
            } catch {
                // A prefix that ends before the wanted members do fails to parse; only the
                // whole body's failure is the body's.
                if size == total { throw error }
            }
            size = total - size > size * 3 ? size * 4 : total
        }
    }
}
