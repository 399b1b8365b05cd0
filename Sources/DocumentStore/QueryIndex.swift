import Foundation
import GRDB

/// A declared query index: the fields it covers and the table of collation keys that backs it.
/// The table has one row per live document (`doc_num`, then one key column per field, NULL
/// where the field is missing) and an SQL index over the key columns in field order.
struct QueryIndex: Sendable {
    let number: Int64
    let name: String
    let fields: [FieldPath]

    var table: String { "query_index_\(number)" }
    func column(_ position: Int) -> String { "k\(position)" }

    /// Every declared index.
    static func all(_ db: Database) throws -> [QueryIndex] {
        try Row.fetchAll(db, sql: "SELECT index_num, name, fields FROM query_indexes ORDER BY index_num").map { row in
            let fieldsText: String = row[2]
            let names = (try? JSONDecoder().decode([String].self, from: Data(fieldsText.utf8))) ?? []
            return QueryIndex(number: row[0], name: row[1], fields: try names.map(FieldPath.init))
        }
    }

    /// Creates the backing table, fills it from the live documents already stored, then adds
    /// its SQL index: filling first and indexing once sorts the keys in one pass instead of
    /// inserting each into the index B-tree.
    func build(_ db: Database) throws {
        let keyColumns = fields.indices.map { column($0) }
        try db.execute(sql: "CREATE TABLE \(table) (doc_num INTEGER PRIMARY KEY, "
            + keyColumns.map { "\($0) BLOB" }.joined(separator: ", ") + ")")
        let insert = try db.makeStatement(sql: insertSQL)
        let cursor = try Row.fetchCursor(db, sql: """
            SELECT d.doc_num, r.body FROM docs d JOIN revs r ON r.rev_num = d.winner_rev_num WHERE d.deleted = 0
            ORDER BY d.doc_num
            """)
        while let row = try cursor.next() {
            let body = try (row[1] as Data?).map(JSONValue.parseObject) ?? [:]
            try insert.execute(arguments: arguments(docNum: row[0], body: body))
        }
        try db.execute(sql: "CREATE INDEX \(table)_keys ON \(table)(\(keyColumns.joined(separator: ", ")))")
    }

    /// Drops the backing table.
    func dropTable(_ db: Database) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS \(table)")
    }

    /// Writes (or replaces) the row of a live document.
    func upsert(_ db: Database, docNum: Int64, body: JSONObject) throws {
        try db.cachedStatement(sql: insertSQL).execute(arguments: arguments(docNum: docNum, body: body))
    }

    /// Writes a row, replacing the one the document had.
    private var insertSQL: String {
        "INSERT OR REPLACE INTO \(table) VALUES (" + Array(repeating: "?", count: fields.count + 1).joined(separator: ",") + ")"
    }

    /// The row of a document: its number, then the collation key of each field (NULL where missing).
    private func arguments(docNum: Int64, body: JSONObject) -> StatementArguments {
        var values: [(any DatabaseValueConvertible)?] = [docNum]
        for field in fields {
            values.append(field.value(in: body).map(CollationKey.data))
        }
        return StatementArguments(values)
    }

    /// Removes the row of a document that is deleted (or no longer live).
    func remove(_ db: Database, docNum: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM \(table) WHERE doc_num = ?").execute(arguments: [docNum])
    }
}
