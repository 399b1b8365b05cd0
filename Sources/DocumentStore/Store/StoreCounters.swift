import Foundation
import GRDB
import DocumentFormat

/// Counts kept in the `counters` table so that `status` and entity counts cost the same at
/// 200 documents and at 2,000,000: `docs` (rows of `docs`, deleted ones included), `live`
/// (documents whose winner is not deleted), `index:<n>` (rows of query index `n`, which
/// never holds design documents) and, for an index that counts by leading key,
/// `index:<n>:<hex key>` (its rows with that value in the first column: the documents of one
/// entity, the recipes of one type). A write transaction gathers its changes in memory and
/// adds them once, at its end.
enum StoreCounters {
    /// The counter of every row in `docs`.
    static let documents = "docs"
    /// The counter of live documents.
    static let live = "live"

    /// The counter of a query index's rows.
    static func index(_ number: Int64) -> String { "index:\(number)" }

    /// The counter of an index's rows whose first column holds `key` (a collation key).
    static func index(_ number: Int64, leadingKey key: Data) -> String {
        "index:\(number):" + Hex.lowercase(key)
    }

    /// The current value of a counter, or `nil` when it does not exist.
    static func value(_ db: Database, _ name: String) throws -> Int? {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT value FROM counters WHERE name = ?"), arguments: [name])
    }

    /// Sets a counter.
    static func set(_ db: Database, _ name: String, to value: Int) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO counters(name, value) VALUES (?, ?)").execute(arguments: [name, value])
    }

    /// Removes a counter, and with `keyed` the per-key counters of the same index.
    static func remove(_ db: Database, _ name: String, keyed: Bool = false) throws {
        try db.cachedStatement(sql: "DELETE FROM counters WHERE name = ?").execute(arguments: [name])
        if keyed {
            try db.execute(sql: "DELETE FROM counters WHERE name >= ? AND name < ?", arguments: [name + ":", name + ";"])
        }
    }

    /// Adds the changes a transaction gathered.
    static func add(_ db: Database, _ deltas: [String: Int]) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO counters(name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + excluded.value
            """)
        for (name, delta) in deltas where delta != 0 {
            try statement.execute(arguments: [name, delta])
        }
    }

    /// Creates the table and counts what the file holds (schema v3): design documents leave
    /// the query and text indexes, which no longer keep them.
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE counters (name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL);
            INSERT INTO counters(name, value) VALUES ('docs', (SELECT COUNT(*) FROM docs));
            INSERT INTO counters(name, value) VALUES ('live', (SELECT COUNT(*) FROM docs WHERE deleted = 0));
            """)
        let designDocs = "SELECT doc_num FROM docs WHERE doc_id GLOB '_design/*'"
        for number in try Int64.fetchAll(db, sql: "SELECT index_num FROM text_indexes") {
            try db.execute(sql: "DELETE FROM text_index_\(number) WHERE rowid IN (\(designDocs))")
        }
        for number in try Int64.fetchAll(db, sql: "SELECT index_num FROM query_indexes") {
            try db.execute(sql: "DELETE FROM query_index_\(number) WHERE doc_num IN (\(designDocs))")
            let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM query_index_\(number)") ?? 0
            try set(db, index(number), to: rows)
        }
    }
}
