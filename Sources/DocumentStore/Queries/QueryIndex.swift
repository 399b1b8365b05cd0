import Foundation
import GRDB
import DocumentFormat

/// A declared query index: the fields it covers, an optional partial filter, and the table of
/// collation keys that backs it. The table has one row per live document the filter selects
/// (`doc_num`, then one key column per field, NULL where the field is missing) and an SQL
/// index over the key columns in field order.
///
/// The partial filter is a set of field equalities (`{"CDTISEntityName": "Recipe"}`), as
/// CouchDB's `partial_filter_selector`: only matching documents have rows, so an index per
/// entity costs nothing on writes of other entities, and a query can use the index only when
/// its selector requires the same equalities.
struct QueryIndex: Sendable {
    /// One key column: a field path, keyed by value or by folded value.
    struct Key: Hashable, Sendable {
        let path: FieldPath
        let folded: Bool
    }

    let number: Int64
    let name: String
    let keys: [Key]
    /// The documents that have rows.
    let partial: PartialFilter
    /// Whether the index also counts its rows per value of its first column.
    let countsByLeadingKey: Bool
    /// The name of its row counter (made once: writes touch it for every document).
    let rowCounter: String
    /// The statement that writes a row (made once, for the same reason).
    let insertSQL: String
    /// The statement that reads a document's key columns (made once, for the same reason).
    let selectKeysSQL: String
    /// Whether the store holds the index's rank table (``IndexRanks``).
    let hasRankTable: Bool

    init(number: Int64, name: String, keys: [Key], partial: PartialFilter, countsByLeadingKey: Bool = false,
         hasRankTable: Bool = false) {
        self.hasRankTable = hasRankTable
        self.number = number
        self.name = name
        self.keys = keys
        self.partial = partial
        self.countsByLeadingKey = countsByLeadingKey
        self.rowCounter = StoreCounters.index(number)
        self.insertSQL = "INSERT INTO query_index_\(number) VALUES (" + Array(repeating: "?", count: keys.count + 1).joined(separator: ",") + ")"
        self.selectKeysSQL = "SELECT " + keys.indices.map { "k\($0)" }.joined(separator: ", ") + " FROM query_index_\(number) WHERE doc_num = ?"
    }

    var table: String { "query_index_\(number)" }

    /// Whether the index keeps the positions of its rows (``IndexRanks``): it has one folded
    /// key, the order a list of names is shown in, and paged through.
    var keepsRanks: Bool { keys.count == 1 && keys[0].folded }

    /// Its ranks, when it keeps them and the store holds them: an index built by a program
    /// from before ranks has none, and its pages step over the rows.
    var ranks: IndexRanks? { keepsRanks && hasRankTable ? IndexRanks(index: self) : nil }
    func column(_ position: Int) -> String { "k\(position)" }

    /// Every declared index.
    static func all(_ db: Database) throws -> [QueryIndex] {
        let rankTables = Set(try String.fetchAll(db.cachedStatement(sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'query_rank_*'")))
        return try Row.fetchAll(db, sql: "SELECT index_num, name, fields, partial, counted FROM query_indexes ORDER BY index_num").map { row in
            let fields = (try? JSONValue.parse(row[2] as String))?.arrayValue ?? []
            let keys = try fields.compactMap(IndexField.init(json:)).map { Key(path: try FieldPath($0.field), folded: $0.folded) }
            let number: Int64 = row[0]
            return QueryIndex(number: number, name: row[1], keys: keys, partial: try PartialFilter(storedText: row[3]),
                              countsByLeadingKey: row[4], hasRankTable: rankTables.contains(IndexRanks.table(number)))
        }
    }

    /// Creates the backing table, fills it from the live documents already stored (design
    /// documents never have rows), then adds its SQL index: filling first and indexing once
    /// sorts the keys in one pass instead of inserting each into the index B-tree. Sets the
    /// index's row counter.
    func build(_ db: Database) throws {
        let columns = keys.indices.map { column($0) }
        try db.execute(sql: "CREATE TABLE \(table) (doc_num INTEGER PRIMARY KEY, "
            + columns.map { "\($0) BLOB" }.joined(separator: ", ") + ")")
        let insert = try db.makeStatement(sql: insertSQL)
        var counts: [String: Int] = [rowCounter: 0]
        try TreeRows.forEachLiveBody(db) { docNum, body in
            guard partial.selects(body) else { return }
            let row = keyColumns(of: body)
            try insert.execute(arguments: arguments(docNum: docNum, row))
            count(row, into: &counts)
        }
        try db.execute(sql: "CREATE INDEX \(table)_keys ON \(table)(\(columns.joined(separator: ", ")))")
        for (name, value) in counts { try StoreCounters.set(db, name, to: value) }
        if keepsRanks { try IndexRanks(index: self).build(db) }
    }

    /// Drops the index numbered `number`: its table, its ranks, its counters and its
    /// declaration.
    static func drop(_ db: Database, number: Int64) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS query_index_\(number)")
        try IndexRanks.dropTable(db, indexNumber: number)
        try StoreCounters.remove(db, StoreCounters.index(number), keyed: true)
        try db.execute(sql: "DELETE FROM query_indexes WHERE index_num = ?", arguments: [number])
    }

    /// Brings the row of a live document up to date: written when the filter selects it,
    /// removed otherwise (a new document has nothing to remove). The changes to the index's
    /// counters go into `deltas`. A row whose keys did not change is left as it is: a recipe
    /// type rewritten for each recipe added to it keeps its name, and its index rows, ranks
    /// and counters stay put.
    func update(_ db: Database, docNum: Int64, body: JSONObject, isNew: Bool, deltas: inout [String: Int]) throws {
        let selected = partial.selects(body)
        let row = selected ? keyColumns(of: body) : []
        if !isNew {
            if selected, let stored = try Row.fetchOne(db.cachedStatement(sql: selectKeysSQL), arguments: [docNum]),
               stored.count == row.count, row.indices.allSatisfy({ (stored[$0] as Data?) == row[$0] }) {
                return
            }
            try remove(db, docNum: docNum, deltas: &deltas)
        }
        if selected {
            try db.cachedStatement(sql: insertSQL).execute(arguments: arguments(docNum: docNum, row))
            count(row, into: &deltas)
        }
    }

    /// Counts a new row: on the row counter and, when counting by leading key, on the
    /// counter of its first column's key.
    private func count(_ row: [Data?], into deltas: inout [String: Int]) {
        deltas[rowCounter, default: 0] += 1
        if countsByLeadingKey, let first = row.first, let key = first {
            deltas[StoreCounters.index(number, leadingKey: key), default: 0] += 1
        }
    }

    /// The collation key of each field of a document (nil where the field is missing), in
    /// column order: computed once per write for both the row and its counters.
    private func keyColumns(of body: JSONObject) -> [Data?] {
        keys.map { key in key.path.value(in: body).map { Self.keyData($0, folded: key.folded) } }
    }

    /// The row of a document: its number, then its key columns.
    private func arguments(docNum: Int64, _ row: [Data?]) -> StatementArguments {
        var values: [(any DatabaseValueConvertible)?] = [docNum]
        values.reserveCapacity(row.count + 1)
        for key in row { values.append(key) }
        return StatementArguments(values)
    }

    /// The collation key of a value in a column; strings of a folded column are folded first.
    static func keyData(_ value: JSONValue, folded: Bool) -> Data {
        if folded, case .string(let text) = value { return CollationKey.data(.string(TextFolding.fold(text))) }
        return CollationKey.data(value)
    }

    /// Removes the row of a document that is deleted (or no longer live), taking it off the
    /// counters in `deltas`.
    func remove(_ db: Database, docNum: Int64, deltas: inout [String: Int]) throws {
        if countsByLeadingKey {
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "DELETE FROM \(table) WHERE doc_num = ? RETURNING \(column(0))"),
                                             arguments: [docNum]) else { return }
            deltas[rowCounter, default: 0] -= 1
            if let key = row[0] as Data? { deltas[StoreCounters.index(number, leadingKey: key), default: 0] -= 1 }
            return
        }
        try db.cachedStatement(sql: "DELETE FROM \(table) WHERE doc_num = ?").execute(arguments: [docNum])
        if db.changesCount > 0 { deltas[rowCounter, default: 0] -= 1 }
    }
}
