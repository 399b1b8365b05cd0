import Foundation
import GRDB
public import DocumentFormat

/// Declaring and dropping the query and full-text indexes queries read through.
extension DocumentStoreWriting {
    /// Declares an index over `fields` (dotted paths) named `name`, building it over the
    /// documents already stored; from then on every write keeps it in step, and queries whose
    /// selector or sort it covers read through it. Declaring the same index again changes
    /// nothing; the same name with other fields replaces it.
    public func ensureIndex(fields: [String], name: String) throws {
        try ensureIndex(fields.map { IndexField($0) }, name: name)
    }

    /// Declares an index over `fields` named `name`, holding only the documents whose fields
    /// equal every member of `partialFilter` (CouchDB's `partial_filter_selector`, limited to
    /// equalities), so an index per kind of document costs nothing on writes of other kinds.
    /// Queries use it when their selector requires the same equalities. Declaring the same
    /// index again reads the declaration and writes nothing; the same name with other fields
    /// or another filter replaces it. With `countsByLeadingKey`, the index also keeps a count
    /// of its rows per value of its first field, so counting the documents with one value
    /// (one entity's, one type's recipes) reads one counter; use it where the first field
    /// has few distinct values.
    public func ensureIndex(_ fields: [IndexField], name: String, partialFilter: JSONObject = [:],
                            countsByLeadingKey: Bool = false) throws {
        guard !name.isEmpty else { throw DocumentStoreError.invalidJSON("an index needs a non-empty name") }
        guard !fields.isEmpty else { throw DocumentStoreError.invalidJSON("index '\(name)' needs at least one field") }
        let paths = try DocumentStoreError.reporting { try fields.map { QueryIndex.Key(path: try FieldPath($0.field), folded: $0.folded) } }
        let fieldsText = DocumentStore.storedText(fields)
        let partialText = PartialFilter.storedText(partialFilter)
        if try isIndexDeclared(fields, name: name, partialFilter: partialFilter, countsByLeadingKey: countsByLeadingKey) { return }
        try connection.writing { txn in
            let db = txn.db
            // Checked again in the write: another declarer may have finished meanwhile.
            if try DocumentStore.indexDeclaration(db, name: name, matches: fieldsText, partialText, countsByLeadingKey) { return }
            if let existing = try Int64.fetchOne(db, sql: "SELECT index_num FROM query_indexes WHERE name = ?", arguments: [name]) {
                try QueryIndex.drop(db, number: existing)
            }
            try db.execute(sql: "INSERT INTO query_indexes(name, fields, partial, counted) VALUES (?, ?, ?, ?)",
                           arguments: [name, fieldsText, partialText, countsByLeadingKey])
            let index = QueryIndex(number: db.lastInsertedRowID, name: name, keys: paths,
                                   partial: try PartialFilter(storedText: partialText), countsByLeadingKey: countsByLeadingKey)
            try index.build(db)
        }
    }

    /// Declares a full-text index named `name` on the string field `field` (a dotted path) of
    /// the documents `partialFilter` selects, building it over the documents already stored
    /// and keeping it in step within every write. `{"field": {"$text": "words"}}` conditions
    /// are then answered from it: a document matches when its field contains the text,
    /// ignoring case and accents. Declaring the same index again writes nothing.
    public func ensureTextIndex(field: String, name: String, partialFilter: JSONObject = [:]) throws {
        guard !name.isEmpty else { throw DocumentStoreError.invalidJSON("a text index needs a non-empty name") }
        let path = try DocumentStoreError.reporting { try FieldPath(field) }
        let partialText = PartialFilter.storedText(partialFilter)
        if try isTextIndexDeclared(field: field, name: name, partialFilter: partialFilter) { return }
        try connection.writing { txn in
            let db = txn.db
            if try DocumentStore.textIndexDeclaration(db, name: name, matches: field, partialText) { return }
            if let existing = try Int64.fetchOne(db, sql: "SELECT index_num FROM text_indexes WHERE name = ?", arguments: [name]) {
                try TextIndex.drop(db, number: existing)
            }
            try db.execute(sql: "INSERT INTO text_indexes(name, field, partial) VALUES (?, ?, ?)",
                           arguments: [name, field, partialText])
            let index = TextIndex(number: db.lastInsertedRowID, name: name, path: path,
                                  partial: try PartialFilter(storedText: partialText))
            try index.build(db)
        }
    }

    /// Drops the query or text index named `name`, if declared.
    public func dropIndex(name: String) throws {
        try connection.writing { txn in
            let db = txn.db
            if let number = try Int64.fetchOne(db, sql: "SELECT index_num FROM query_indexes WHERE name = ?", arguments: [name]) {
                try QueryIndex.drop(db, number: number)
            }
            if let number = try Int64.fetchOne(db, sql: "SELECT index_num FROM text_indexes WHERE name = ?", arguments: [name]) {
                try TextIndex.drop(db, number: number)
            }
        }
    }
}

extension DocumentStoreReading {
    /// Whether the index named `name` is declared exactly so (the same fields, filter and
    /// counting), so that ``DocumentStoreWriting/ensureIndex(_:name:partialFilter:countsByLeadingKey:)`` would write
    /// nothing. One read: on a ``StoreReader`` (``DocumentStore/withSnapshot(_:)``), many declarations are checked at once.
    public func isIndexDeclared(_ fields: [IndexField], name: String, partialFilter: JSONObject = [:],
                                countsByLeadingKey: Bool = false) throws -> Bool {
        let fieldsText = DocumentStore.storedText(fields), partialText = PartialFilter.storedText(partialFilter)
        return try connection.reading { db in try DocumentStore.indexDeclaration(db, name: name, matches: fieldsText, partialText, countsByLeadingKey) }
    }

    /// Whether the text index named `name` is declared exactly so, so that
    /// ``DocumentStoreWriting/ensureTextIndex(field:name:partialFilter:)`` would write nothing.
    public func isTextIndexDeclared(field: String, name: String, partialFilter: JSONObject = [:]) throws -> Bool {
        let partialText = PartialFilter.storedText(partialFilter)
        return try connection.reading { db in try DocumentStore.textIndexDeclaration(db, name: name, matches: field, partialText) }
    }

    /// The names of the declared query indexes and text indexes.
    public func indexNames() throws -> (query: [String], text: [String]) {
        try connection.reading { db in
            (try String.fetchAll(db, sql: "SELECT name FROM query_indexes ORDER BY name"),
             try String.fetchAll(db, sql: "SELECT name FROM text_indexes ORDER BY name"))
        }
    }
}

extension DocumentStore {
    /// Whether the query index `name` is declared with these stored fields, filter and counting.
    static func indexDeclaration(_ db: Database, name: String, matches fieldsText: String, _ partialText: String,
                                         _ counted: Bool) throws -> Bool {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT fields, partial, counted FROM query_indexes WHERE name = ?"),
                                         arguments: [name]) else { return false }
        return (row[0] as String) == fieldsText && (row[1] as String) == partialText && (row[2] as Bool) == counted
    }

    /// Whether the text index `name` is declared on `field` with this stored filter.
    static func textIndexDeclaration(_ db: Database, name: String, matches field: String, _ partialText: String) throws -> Bool {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT field, partial FROM text_indexes WHERE name = ?"),
                                         arguments: [name]) else { return false }
        return (row[0] as String) == field && (row[1] as String) == partialText
    }

    /// How an index's fields are stored in its declaration.
    static func storedText(_ fields: [IndexField]) -> String {
        String(decoding: CanonicalJSON.encode(.array(fields.map(\.json))), as: UTF8.self)
    }
}

