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

    /// Creates the backing table and its SQL index.
    func createTable(_ db: Database) throws {
        let keyColumns = fields.indices.map { column($0) }
        try db.execute(sql: "CREATE TABLE \(table) (doc_num INTEGER PRIMARY KEY, "
            + keyColumns.map { "\($0) BLOB" }.joined(separator: ", ") + ")")
        try db.execute(sql: "CREATE INDEX \(table)_keys ON \(table)(\(keyColumns.joined(separator: ", ")))")
    }

    /// Drops the backing table.
    func dropTable(_ db: Database) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS \(table)")
    }

    /// Writes (or replaces) the row of a live document.
    func upsert(_ db: Database, docNum: Int64, body: JSONObject) throws {
        let placeholders = Array(repeating: "?", count: fields.count + 1).joined(separator: ",")
        let statement = try db.cachedStatement(sql: "INSERT OR REPLACE INTO \(table) VALUES (\(placeholders))")
        var values: [(any DatabaseValueConvertible)?] = [docNum]
        for field in fields {
            values.append(field.value(in: body).map(CollationKey.data))
        }
        try statement.execute(arguments: StatementArguments(values))
    }

    /// Removes the row of a document that is deleted (or no longer live).
    func remove(_ db: Database, docNum: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM \(table) WHERE doc_num = ?").execute(arguments: [docNum])
    }
}
