import Foundation
import GRDB
import DocumentFormat

/// A declared full-text index on one string field: an FTS5 table (`text_index_<n>`) with the
/// trigram tokenizer over the field's folded text (`TextFolding`), one row per live
/// document the partial filter selects, rowid = `doc_num`. A `$text` condition on the field
/// becomes a trigram phrase query, which finds exactly the documents whose folded field
/// contains the folded search text as a substring, for texts of three bytes or more.
struct TextIndex: Sendable {
    let number: Int64
    let name: String
    let path: FieldPath
    let partial: PartialFilter

    var table: String { "text_index_\(number)" }

    /// Shorter folded search texts have no trigram: they are answered by reading documents.
    static let minimumSearchBytes = 3

    /// Every declared text index.
    static func all(_ db: Database) throws -> [TextIndex] {
        try Row.fetchAll(db, sql: "SELECT index_num, name, field, partial FROM text_indexes ORDER BY index_num").map { row in
            TextIndex(number: row[0], name: row[1], path: try FieldPath(row[2]), partial: try PartialFilter(storedText: row[3]))
        }
    }

    /// Creates the FTS5 table and fills it from the live documents already stored.
    func build(_ db: Database) throws {
        try db.execute(sql: "CREATE VIRTUAL TABLE \(table) USING fts5(text, tokenize = 'trigram')")
        try TreeRows.forEachLiveBody(db) { docNum, body in
            try write(db, docNum: docNum, text: text(of: body), isNew: true)
        }
    }

    /// Drops the text index numbered `number`: its FTS5 table and its declaration.
    static func drop(_ db: Database, number: Int64) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS text_index_\(number)")
        try db.execute(sql: "DELETE FROM text_indexes WHERE index_num = ?", arguments: [number])
    }

    /// The folded text a live document's row holds: its field's when the filter selects it
    /// and the field holds a string; `nil` (no row) otherwise.
    func text(of body: JSONObject) -> String? {
        guard partial.selects(body), case .string(let text)? = path.value(in: body) else { return nil }
        return TextFolding.fold(text)
    }

    /// Brings the row of a document up to date: `text` (``text(of:)``), or no row for `nil`.
    /// An unchanged text is left alone: each rewrite leaves FTS5 a deletion to carry until
    /// its segments merge, and a recipe type rewritten for every recipe added to it would
    /// slow every search of its name. `isNew`: the document had no row before.
    func write(_ db: Database, docNum: Int64, text: String?, isNew: Bool) throws {
        if !isNew {
            let stored = try String.fetchOne(db.cachedStatement(sql: "SELECT text FROM \(table) WHERE rowid = ?"), arguments: [docNum])
            if stored == text { return }
            if stored != nil { try remove(db, docNum: docNum) }
        }
        if let text {
            try db.cachedStatement(sql: "INSERT INTO \(table)(rowid, text) VALUES (?, ?)").execute(arguments: [docNum, text])
        }
    }

    /// Removes the row of a document.
    func remove(_ db: Database, docNum: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM \(table) WHERE rowid = ?").execute(arguments: [docNum])
    }

    /// The documents whose folded field contains the folded `text`, or `nil` when the text is
    /// too short for trigrams. Any text is searched literally: quotes, operators and `*` are
    /// characters to find, never query syntax.
    func search(_ db: Database, text: String) throws -> [Int64]? {
        let folded = TextFolding.fold(text)
        guard folded.utf8.count >= Self.minimumSearchBytes else { return nil }
        // One FTS5 string: quoted, each quote doubled (by scalar, not through Foundation's
        // `replacingOccurrences`, whose `NSString` bridging costs each search's start).
        var phrase = "\""
        for scalar in folded.unicodeScalars {
            phrase.unicodeScalars.append(scalar)
            if scalar == "\"" { phrase.unicodeScalars.append(scalar) }
        }
        phrase.unicodeScalars.append("\"")
        return try Int64.fetchAll(db.cachedStatement(sql: "SELECT rowid FROM \(table) WHERE text MATCH ?"), arguments: [phrase])
    }
}
