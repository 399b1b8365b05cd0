import Foundation
import GRDB

/// The anchor of `recipes import`: how fast raw SQLite inserts the same objects on this
/// machine in the same run. One row per object (`id TEXT PRIMARY KEY, body BLOB` holding
/// the object's JSON as the store keeps it) with one expression index on
/// `json_extract(body, '$.name')`, WAL, 1,000 rows per transaction through one prepared
/// statement. Only the inserts are timed; the bodies are read from the imported store in
/// batches beforehand, so memory stays at one batch.
enum RawInsertAnchor {
    /// Rows per transaction.
    static let batch = 1_000

    /// Rows per second inserting every live object of `store` into a new file in `folder`.
    static func rowsPerSecond(copying store: String, into folder: URL) throws -> (rows: Int, perSecond: Double) {
        let path = folder.appendingPathComponent("raw-insert.sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var readOnly = Configuration()
        readOnly.readonly = true
        let source = try DatabaseQueue(path: store, configuration: readOnly)
        let target = try DatabaseQueue(path: path)
        try target.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "CREATE TABLE objects (id TEXT PRIMARY KEY, body BLOB)")
            try db.execute(sql: "CREATE INDEX objects_by_name ON objects(json_extract(body, '$.name'))")
        }
        var rows = 0
        var seconds = 0.0
        var lastDocument: Int64 = 0
        while true {
            let page = try source.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT d.doc_num, d.doc_id, r.body FROM docs d JOIN revs r ON r.rev_num = d.winner_rev_num
                    WHERE d.deleted = 0 AND d.doc_num > ? ORDER BY d.doc_num LIMIT \(batch)
                    """, arguments: [lastDocument]).map { row -> (Int64, String, Data) in (row[0], row[1], row[2]) }
            }
            guard let last = page.last else { break }
            lastDocument = last.0
            let start = ContinuousClock.now
            try target.writeWithoutTransaction { db in
                let insert = try db.cachedStatement(sql: "INSERT INTO objects(id, body) VALUES (?, ?)")
                try db.inTransaction {
                    for (_, id, body) in page { try insert.execute(arguments: [id, body]) }
                    return .commit
                }
            }
            seconds += SyncBenchmark.seconds(since: start)
            rows += page.count
        }
        return (rows, Double(rows) / max(seconds, 0.000_001))
    }
}
