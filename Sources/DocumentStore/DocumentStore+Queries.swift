import Foundation
import GRDB

extension DocumentStore {
    /// Declares an index over `fields` (dotted paths) named `name`, building it over the
    /// documents already stored; from then on every write keeps it in step, and queries whose
    /// selector or sort it covers read through it. Declaring the same index again changes
    /// nothing; the same name with other fields replaces it.
    public func ensureIndex(fields: [String], name: String) throws {
        guard !name.isEmpty else { throw DocumentStoreError.invalidJSON("an index needs a non-empty name") }
        guard !fields.isEmpty else { throw DocumentStoreError.invalidJSON("index '\(name)' needs at least one field") }
        let paths = try fields.map(FieldPath.init)
        let fieldsText = String(decoding: CanonicalJSON.encode(.array(fields.map { .string($0) })), as: UTF8.self)
        try writing { txn in
            let db = txn.db
            if let existing = try Row.fetchOne(db, sql: "SELECT index_num, fields FROM query_indexes WHERE name = ?",
                                               arguments: [name]) {
                if (existing[1] as String) == fieldsText { return }
                try QueryIndex(number: existing[0], name: name, fields: []).dropTable(db)
                try db.execute(sql: "DELETE FROM query_indexes WHERE index_num = ?", arguments: [existing[0] as Int64])
            }
            try db.execute(sql: "INSERT INTO query_indexes(name, fields) VALUES (?, ?)", arguments: [name, fieldsText])
            let index = QueryIndex(number: db.lastInsertedRowID, name: name, fields: paths)
            try index.build(db)
        }
    }

    /// The live winners matching the query's selector, in its sort order, paged by skip/limit.
    /// Documents equal on every sort key come in no particular order. Design documents
    /// (`_design/…`) are never returned, as CouchDB's `_find` leaves them out.
    public func find(_ query: Query) throws -> [DocumentRevision] {
        let selector = try Selector(parsing: query.selector)
        let sort = try query.sort.map { (try FieldPath($0.field), $0.ascending) }
        let wanted = query.limit.map { max(0, $0) + max(0, query.skip) }
        if wanted == 0 { return [] }
        return try reading { db in
            let plan = query.useIndex
                ? QueryPlan.choose(selector: selector, sort: sort, indexes: try QueryIndex.all(db))
                : QueryPlan.scan(sort: query.sort)
            var matches: [DocumentRevision] = []
            let cursor = try Row.fetchCursor(db, sql: plan.sql, arguments: StatementArguments(plan.arguments))
            while let row = try cursor.next() {
                let revision = try Self.winnerRevision(row)
                guard selector.matches(revision.body), !DesignDocuments.isDesign(revision.id) else { continue }
                matches.append(revision)
                if plan.ordered, let wanted, matches.count >= wanted { break }
            }
            if !plan.ordered { matches = Self.sorted(matches, by: sort) }
            let page = matches.dropFirst(max(0, query.skip))
            return Array(query.limit.map { page.prefix(max(0, $0)) } ?? page)
        }
    }

    /// How many live documents match the selector (design documents left out, as in ``find(_:)``).
    ///
    /// When an index decides the selector on its own (string equalities and `$in` lists on
    /// its leading fields, nothing else), the count comes from the index without reading a
    /// document; otherwise the candidates are read and checked.
    public func count(selector: JSONValue) throws -> Int {
        let parsed = try Selector(parsing: selector)
        if case .all = parsed {
            return try reading { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM docs d WHERE d.deleted = 0 AND \(DesignDocuments.excludedSQL)") ?? 0
            }
        }
        let counted = try reading { db -> Int? in
            let plan = QueryPlan.choose(selector: parsed, sort: [], indexes: try QueryIndex.all(db))
            guard plan.exact, let sql = plan.countSQL else { return nil }
            return try Int.fetchOne(db, sql: sql, arguments: StatementArguments(plan.arguments)) ?? 0
        }
        return try counted ?? find(Query(selector: selector)).count
    }

    /// Sorts by the sort keys in collation order, a missing field first (ascending).
    static func sorted(_ revisions: [DocumentRevision], by sort: [(FieldPath, Bool)]) -> [DocumentRevision] {
        guard !sort.isEmpty else { return revisions }
        let keyed = revisions.map { revision in
            (revision, sort.map { path, _ in path.value(in: revision.body).map(CollationKey.make) })
        }
        return keyed.sorted { lhs, rhs in
            for (position, (_, ascending)) in sort.enumerated() {
                let order: Int
                switch (lhs.1[position], rhs.1[position]) {
                case (nil, nil): order = 0
                case (nil, _): order = -1
                case (_, nil): order = 1
                case (let a?, let b?): order = CollationKey.compare(a, b)
                }
                if order != 0 { return ascending ? order < 0 : order > 0 }
            }
            return false
        }.map(\.0)
    }

    // MARK: maintenance

    /// Drops the bodies (and attachment references) of non-leaf revisions, keeping the tree's
    /// shape, prunes trees deeper than the revision limit, and deletes attachment bytes no
    /// revision refers to any more.
    public func compact() throws {
        try writing { txn in
            let db = txn.db
            try db.execute(sql: "UPDATE revs SET body = NULL, atts = NULL WHERE leaf = 0 AND (body IS NOT NULL OR atts IS NOT NULL)")
            let deep = try Int64.fetchAll(db, sql: "SELECT DISTINCT doc_num FROM revs WHERE generation > ?",
                                          arguments: [txn.revisionLimit])
            for docNum in deep { try txn.stem(docNum: docNum) }
            try AttachmentStorage.collectGarbage(db)
        }
        _ = try? mapped { try pool.writeWithoutTransaction { try $0.checkpoint(.truncate) } }
    }
}
