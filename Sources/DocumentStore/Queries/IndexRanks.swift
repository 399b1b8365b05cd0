import Foundation
import GRDB

/// The positions of a query index's rows, kept so that a late page of the index's order is
/// found without stepping over every row before it: SQLite's B-trees do not count their
/// entries, so `LIMIT 50 OFFSET 50000` reads 50,000 index entries first.
///
/// The rows of the index with a key (NULL-key rows are left out: they come first in the
/// index order and are counted apart) are cut into consecutive buckets of about
/// ``bucketSize`` rows, in a table `query_rank_<n>` of one row per bucket: the position
/// (key, document number) where the bucket starts, and its number of rows. A bucket holds
/// the index rows from its start up to the next bucket's start. Triggers on the index table
/// add every row added to its bucket and take every row removed off it, in the same
/// statement, whoever writes (a program from before ranks too), drop a bucket left empty
/// and start a bucket for a row before every bucket; at the end of each of this store's
/// writes a bucket twice the size is cut and a small one joined to its neighbour
/// (``normalize(_:)``). A page at offset K then reads the
/// bucket table (one row per ``bucketSize`` index rows), seeks to the bucket holding row K and
/// steps over fewer than 2 × ``bucketSize`` entries.
///
/// Kept for the indexes of one folded key (`QueryIndex.ranks`): the order a list of names
/// is shown in. The bucket table is read as untrusted: a bucket count that is not a small
/// positive integer, or counts that do not add up to the index's row counter, make a page
/// step over the rows as it would without ranks.
struct IndexRanks {
    let index: QueryIndex

    /// The rows a bucket is cut to; a bucket of more than twice as many is split.
    static let bucketSize = 256

    var table: String { Self.table(index.number) }

    /// The bucket table of the index numbered `number`.
    static func table(_ number: Int64) -> String { "query_rank_\(number)" }

    private var key: String { index.column(0) }

    /// Creates the bucket table and its triggers, and fills it from the index's rows (already
    /// written, in one pass in index order).
    func build(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE \(table) (k BLOB NOT NULL, doc INTEGER NOT NULL, rows INTEGER NOT NULL, PRIMARY KEY (k, doc)) WITHOUT ROWID")
        // The bucket of a row: the last one starting at or before it.
        func holding(_ row: String) -> String {
            "(k, doc) = (SELECT k, doc FROM \(table) WHERE (k, doc) <= (\(row).\(key), \(row).doc_num) ORDER BY k DESC, doc DESC LIMIT 1)"
        }
        // A row before every bucket starts a bucket of its own (``normalize(_:)`` joins it).
        let add = "UPDATE \(table) SET rows = rows + 1 WHERE \(holding("NEW"));"
            + " INSERT INTO \(table) SELECT NEW.\(key), NEW.doc_num, 1 WHERE NOT EXISTS"
            + " (SELECT 1 FROM \(table) WHERE (k, doc) <= (NEW.\(key), NEW.doc_num));"
        let take = "UPDATE \(table) SET rows = rows - 1 WHERE \(holding("OLD")); DELETE FROM \(table) WHERE \(holding("OLD")) AND rows <= 0;"
        try db.execute(sql: """
            CREATE TRIGGER \(table)_added AFTER INSERT ON \(index.table) WHEN NEW.\(key) IS NOT NULL BEGIN \(add) END;
            CREATE TRIGGER \(table)_removed AFTER DELETE ON \(index.table) WHEN OLD.\(key) IS NOT NULL BEGIN \(take) END;
            CREATE TRIGGER \(table)_moved_from AFTER UPDATE OF \(key), doc_num ON \(index.table) WHEN OLD.\(key) IS NOT NULL BEGIN \(take) END;
            CREATE TRIGGER \(table)_moved_to AFTER UPDATE OF \(key), doc_num ON \(index.table) WHEN NEW.\(key) IS NOT NULL BEGIN \(add) END;
            """)
        let cursor = try Row.fetchCursor(db, sql: "SELECT \(key), doc_num FROM \(index.table) WHERE \(key) IS NOT NULL ORDER BY \(key), doc_num")
        var start: (key: Data, doc: Int64)?
        var rows = 0
        let insert = try db.makeStatement(sql: "INSERT INTO \(table) VALUES (?, ?, ?)")
        while let row = try cursor.next() {
            if start == nil { start = (row[0], row[1]) }
            rows += 1
            guard rows == Self.bucketSize, let first = start else { continue }
            try insert.execute(arguments: [first.key, first.doc, rows])
            start = nil
            rows = 0
        }
        if let first = start { try insert.execute(arguments: [first.key, first.doc, rows]) }
    }

    /// Drops the bucket table of the index numbered `number`, if it has one, and its
    /// triggers.
    static func dropTable(_ db: Database, indexNumber number: Int64) throws {
        let table = table(number)
        for trigger in ["added", "removed", "moved_from", "moved_to"] { try db.execute(sql: "DROP TRIGGER IF EXISTS \(table)_\(trigger)") }
        try db.execute(sql: "DROP TABLE IF EXISTS \(table)")
    }

    /// A row of the bucket table; a count read from the file that is no integer fails the
    /// read with an error, never a trap.
    private static func bucket(_ row: Row) throws -> (key: Data, doc: Int64, rows: Int) {
        (try row.decode(atIndex: 0), try row.decode(atIndex: 1), try row.decode(atIndex: 2))
    }

    /// Keeps the buckets in shape at the end of a write that changed the index's rows, in
    /// one pass over the bucket table: a bucket of more than twice ``bucketSize`` rows is
    /// cut into buckets of ``bucketSize``, and a bucket of fewer than a quarter of it joins
    /// its neighbour when both fit in twice ``bucketSize``. A bucket table that cannot be
    /// read is left as it is (pages then step over the rows).
    func normalize(_ db: Database) throws {
        guard let buckets = try? Row.fetchAll(db.cachedStatement(sql: "SELECT k, doc, rows FROM \(table) ORDER BY k, doc")).map(Self.bucket)
        else { return }
        let small = Self.bucketSize / 4
        var previous: (key: Data, doc: Int64, rows: Int)?
        for (number, bucket) in buckets.enumerated() {
            if bucket.rows > 2 * Self.bucketSize {
                let next = number + 1 < buckets.count ? (buckets[number + 1].key, buckets[number + 1].doc) : nil
                previous = try split(db, bucket.key, bucket.doc, before: next)
                continue
            }
            if let kept = previous, bucket.rows < small || kept.rows < small, kept.rows + bucket.rows <= 2 * Self.bucketSize {
                try db.cachedStatement(sql: "DELETE FROM \(table) WHERE k = ? AND doc = ?").execute(arguments: [bucket.key, bucket.doc])
                try db.cachedStatement(sql: "UPDATE \(table) SET rows = ? WHERE k = ? AND doc = ?")
                    .execute(arguments: [kept.rows + bucket.rows, kept.key, kept.doc])
                previous = (kept.key, kept.doc, kept.rows + bucket.rows)
                continue
            }
            previous = bucket
        }
    }

    /// Cuts the bucket starting at (`key`, `doc`), up to the next bucket's start, into buckets
    /// of ``bucketSize`` rows counted from the index itself; returns the last one.
    private func split(_ db: Database, _ key: Data, _ doc: Int64, before next: (Data, Int64)?) throws -> (key: Data, doc: Int64, rows: Int)? {
        let bound = next == nil ? "" : " AND (\(self.key), doc_num) < (?, ?)"
        var arguments: [any DatabaseValueConvertible] = [key, doc]
        if let next { arguments += [next.0, next.1] }
        let positions = try Row.fetchAll(db.cachedStatement(sql: "SELECT \(self.key), doc_num FROM \(index.table) WHERE (\(self.key), doc_num) >= (?, ?)\(bound) ORDER BY \(self.key), doc_num"),
                                         arguments: StatementArguments(arguments))
        try db.cachedStatement(sql: "DELETE FROM \(table) WHERE k = ? AND doc = ?").execute(arguments: [key, doc])
        var last: (key: Data, doc: Int64, rows: Int)?
        for first in stride(from: 0, to: positions.count, by: Self.bucketSize) {
            let chunk: (key: Data, doc: Int64, rows: Int) = (try positions[first].decode(atIndex: 0), try positions[first].decode(atIndex: 1),
                                                              min(Self.bucketSize, positions.count - first))
            try db.cachedStatement(sql: "INSERT INTO \(table) VALUES (?, ?, ?)").execute(arguments: [chunk.key, chunk.doc, chunk.rows])
            last = chunk
        }
        return last
    }

    /// Where the row at position `skip` of the whole index in ascending order is: the start
    /// of the bucket that holds it (past the end: of the last bucket) and how many rows after
    /// that start it lies, for ``orderedSource``. `nil` when the row is among the NULL-key rows
    /// (which come first), when there are no buckets, or when the buckets do not add up to the
    /// index's row counter; the caller then steps over the rows itself.
    func seek(_ db: Database, skip: Int) throws -> (key: Data, doc: Int64, offset: Int)? {
        guard let counts = try Row.fetchOne(db.cachedStatement(sql: "SELECT (SELECT count(*) FROM \(index.table) WHERE \(key) IS NULL), (SELECT value FROM counters WHERE name = ?)"),
                                            arguments: [index.rowCounter]),
              let stored = try? counts.decode(Int.self, atIndex: 1), let nullRows = try? counts.decode(Int.self, atIndex: 0) else { return nil }
        guard skip >= nullRows else { return nil }
        var total = nullRows
        var found: (key: Data, doc: Int64, offset: Int)?
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: "SELECT k, doc, rows FROM \(table) ORDER BY k, doc"))
        while let row = try cursor.next() {
            guard let bucket = try? Self.bucket(row), bucket.rows > 0, bucket.rows <= Int(Int32.max) else { return nil }
            // The last bucket starting at or before the row.
            if total <= skip { found = (bucket.key, bucket.doc, skip - total) }
            let (sum, overflow) = total.addingReportingOverflow(bucket.rows)
            if overflow { return nil }
            total = sum
        }
        guard stored == total else { return nil }
        return found
    }

    /// The rows of the index from a position ``seek(_:skip:)`` found, as a source for a query's
    /// `FROM`: a sub-query `ordered` of document numbers in index order, joined to `docs d`. It
    /// takes the position's key and document number, then the page's limit and the offset.
    var orderedSource: String {
        QueryPlan.orderedSource("SELECT x.doc_num AS doc_num FROM \(index.table) x WHERE (x.\(key), x.doc_num) >= (?, ?)"
            + " ORDER BY x.\(key), x.doc_num \(QueryPlan.pageClause)")
    }
}
