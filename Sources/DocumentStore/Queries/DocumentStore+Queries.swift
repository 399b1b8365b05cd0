import Foundation
import GRDB
import Synchronization
public import DocumentFormat

extension DocumentStoreReading {
    /// How a query would be read, for tests and diagnostics: `"index <name>"` (rows come from
    /// that index), `"candidates"` (document numbers gathered from `_id`, text and index
    /// look-ups) or `"scan"` (every live document is read).
    public func explain(_ query: Query) throws -> String {
        let selector = try DocumentStoreError.reporting { try Selector(parsing: query.selector) }
        let sort = try DocumentStore.sortKeys(query.sort)
        return try connection.reading { db in
            switch try connection.store.plan(selector: selector, sort: sort, useIndex: query.useIndex, wanted: DocumentStore.wanted(query), db: db) {
            case .candidates: return "candidates"
            case .plan(let plan): return plan.index.map { "index \($0.name)" } ?? "scan"
            }
        }
    }

    /// SQLite's `EXPLAIN QUERY PLAN` of the statement that reads the query's rows, one line
    /// per step (`SEARCH x USING INDEX …`, `SCAN d`, `USE TEMP B-TREE FOR ORDER BY`), for
    /// tests and diagnostics: a test can hold a query to its index and catch a fallback to a
    /// scan without timing anything. A query index's table is named by the index's name
    /// (`SEARCH x USING INDEX cdtis_Ingredient.recipe (k0=?)`). For a candidate set (see
    /// ``explain(_:)``) it is the statement that reads the candidates, after they were
    /// gathered.
    public func explainQueryPlan(_ query: Query) throws -> [String] {
        let selector = try DocumentStoreError.reporting { try Selector(parsing: query.selector) }
        let sort = try DocumentStore.sortKeys(query.sort)
        return try connection.reading { db in
            let plan: QueryPlan
            switch try connection.store.plan(selector: selector, sort: sort, useIndex: query.useIndex, wanted: DocumentStore.wanted(query), db: db) {
            case .plan(let chosen): plan = chosen
            case .candidates(let docNums): plan = CandidateSet.plan(docNums, sort: query.sort)
            }
            // Longer numbers first, so query_index_12 is not read as query_index_1 and a "2".
            let names = try QueryIndex.all(db).sorted { $0.number > $1.number }
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + plan.sql, arguments: StatementArguments(plan.arguments)).map { row in
                var detail: String = row["detail"]
                for index in names {
                    detail = detail.replacingOccurrences(of: index.table + "_keys", with: index.name)
                        .replacingOccurrences(of: index.table, with: index.name)
                }
                return detail
            }
        }
    }

    /// The live winners matching the query's selector, in its sort order, paged by skip/limit.
    /// Documents equal on every sort key come in no particular order. Design documents
    /// (`_design/…`) are never returned, as CouchDB's `_find` leaves them out.
    public func find(_ query: Query) throws -> [DocumentRevision] {
        var result: [DocumentRevision] = []
        try forEachMatch(of: query) { result.append($0) }
        return result
    }

    /// The winners ``find(_:)`` returns, handed to `body` one at a time as they are read, so
    /// a caller going through a large result holds one document at a time, not all of them
    /// (when an index serves the sort, or there is none; otherwise the matches are gathered
    /// and sorted first). `body` runs inside one read of the store: it sees one snapshot, and
    /// must not write to this store. An error `body` throws ends the reading and is rethrown
    /// as it is.
    public func forEachMatch(of query: Query, _ body: (DocumentRevision) throws -> Void) throws {
        let selector = try DocumentStoreError.reporting { try Selector(parsing: query.selector) }
        let sort = try DocumentStore.sortKeys(query.sort)
        let skip = max(0, query.skip)
        let wanted = DocumentStore.wanted(query)
        if wanted == 0 { return }
        // The caller's error, kept apart from the store's own (which `reading` reports as
        // store errors).
        var callerError: (any Error)?
        do {
            try connection.reading { db in
                let plan: QueryPlan
                switch try connection.store.plan(selector: selector, sort: sort, useIndex: query.useIndex, wanted: wanted, db: db) {
                case .plan(let chosen): plan = chosen
                case .candidates(let docNums):
                    // No document can match: nothing to read.
                    if docNums.isEmpty { return }
                    plan = CandidateSet.plan(docNums, sort: query.sort)
                }
                // With `fields`, only those members and the ones the selector and sort read are parsed.
                let read: Set<String>? = query.fields.map { Set($0).union(selector.topLevelFields).union(sort.map(\.key.path.components[0])) }
                let trim: Set<String>? = query.fields.flatMap { fields in read.flatMap { $0.count == Set(fields).count ? nil : Set(fields) } }
                func emit(_ revision: DocumentRevision) throws {
                    var revision = revision
                    if let trim { revision.body = revision.body.filter { trim.contains($0.key) } }
                    do { try body(revision) } catch {
                        callerError = error
                        throw MatchStopped()
                    }
                }
                // A late page of an exact, sorted index plan: its rows come in one statement
                // from the page's source, which finds the page in the index alone (by rank,
                // or SQLite stepping over the skipped entries), so only the page's rows are read.
                if skip > 0, plan.exact, plan.ordered, !sort.isEmpty, plan.pagedSource != nil,
                   let limit = query.limit, limit <= DocumentStore.latePageLimit {
                    for revision in try DocumentStore.page(db, plan: plan, limit: limit, skip: skip, keeping: read)
                    where selector.matches(revision.body, id: revision.id) {
                        try emit(revision)
                    }
                    return
                }
                // Rows an exact, ordered index plan decides alone are skipped without reading
                // their bodies, so a late page costs little more than an early one.
                var unread = plan.exact && plan.ordered ? skip : 0
                var toSkip = skip - unread
                var handed = 0
                var gathered: [DocumentRevision] = []
                let sql = read == nil ? plan.sql : plan.readingPartially().sql
                let statement = try db.reusableStatement(sql: sql, argumentCount: plan.arguments.count)
                let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(plan.arguments))
                while let row = try cursor.next() {
                    if unread > 0 {
                        if !DesignDocuments.isDesign(row[0]) { unread -= 1 }
                        continue
                    }
                    let revision = try DocumentStore.winnerRevision(row, keeping: read, in: db)
                    // An exact plan's index rows decide the selector: the body needs no check.
                    guard plan.exact || selector.matches(revision.body, id: revision.id),
                          !DesignDocuments.isDesign(revision.id) else { continue }
                    guard plan.ordered else {
                        gathered.append(revision)
                        continue
                    }
                    if toSkip > 0 {
                        toSkip -= 1
                        continue
                    }
                    try emit(revision)
                    handed += 1
                    if let limit = query.limit, handed >= limit { break }
                }
                guard !plan.ordered else { return }
                let page = DocumentStore.sorted(gathered, by: sort).dropFirst(toSkip)
                for revision in query.limit.map({ page.prefix(max(0, $0)) }) ?? page { try emit(revision) }
            }
        } catch {
            if let callerError { throw callerError }
            throw error
        }
    }

    /// The IDs of the documents ``find(_:)`` returns for `query`, in the same order and page,
    /// when an index decides the selector alone and serves the sort: then no document body
    /// is read. `nil` when the query needs bodies (call ``find(_:)``).
    public func findIDs(_ query: Query) throws -> [String]? {
        let selector = try DocumentStoreError.reporting { try Selector(parsing: query.selector) }
        // `_id` and `$text` conditions are never decided by an index alone (no plan of them
        // is exact), so such a query needs bodies: gathering its candidates here would only
        // be done again by ``find(_:)``.
        if selector.wantsCandidateSet { return nil }
        let sort = try DocumentStore.sortKeys(query.sort)
        return try connection.reading { db in
            guard case .plan(let plan) = try connection.store.plan(selector: selector, sort: sort, useIndex: query.useIndex, wanted: DocumentStore.wanted(query), db: db),
                  plan.exact, plan.ordered, plan.pagedSource != nil || plan.pagedIDSQL != nil,
                  // Without a sort the row order is SQLite's choice: no page of it is stable.
                  !sort.isEmpty || (query.skip <= 0 && query.limit == nil) else { return nil }
            // SQLite takes a negative limit as none.
            return try DocumentStore.pageIDs(db, plan: plan, limit: query.limit.map { max(0, $0) } ?? -1, skip: max(0, query.skip))
        }
    }

    /// How many live documents match the selector (design documents left out, as in ``find(_:)``).
    ///
    /// When an index decides the selector on its own (string equalities and `$in` lists on
    /// its leading fields, nothing else), the count comes from the index without reading a
    /// document; otherwise the candidates are read and checked.
    public func count(selector: JSONValue) throws -> Int {
        let parsed = try DocumentStoreError.reporting { try Selector(parsing: selector) }
        if case .all = parsed {
            return try connection.reading { db in
                let design = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM docs WHERE deleted = 0 AND doc_id GLOB '_design/*'") ?? 0
                return (try StoreCounters.value(db, StoreCounters.live) ?? 0) - design
            }
        }
        let counted = try connection.reading { db -> Int? in
            guard !parsed.wantsCandidateSet else { return nil }
            let plan = QueryPlan.choose(selector: parsed, sort: [], indexes: try connection.store.queryIndexes(db))
            guard plan.exact, let sql = plan.countSQL else { return nil }
            // A whole (partial) index, e.g. every document of one entity: its row counter.
            if plan.countsWholeIndex, let index = plan.index, let rows = try StoreCounters.value(db, StoreCounters.index(index.number)) {
                return rows
            }
            // Values of the first column of an index that counts by leading key: their counters.
            if let index = plan.index, index.countsByLeadingKey, plan.constrainedFields == 1, let keys = plan.leadingKeys {
                return try Set(keys).reduce(0) { total, key in
                    total + (try StoreCounters.value(db, StoreCounters.index(index.number, leadingKey: key)) ?? 0)
                }
            }
            return try Int.fetchOne(db, sql: sql, arguments: StatementArguments(plan.arguments)) ?? 0
        }
        return try counted ?? find(Query(selector: selector)).count
    }
}

extension DocumentStore {
    /// Chooses the reading: an ordered or narrowing index plan, unless the selector has `_id`
    /// or `$text` conditions or no index serves it, when a candidate set (if one can be
    /// found) reads only documents that can match.
    ///
    /// `wanted` (skip + limit) and the index row counters let a sorted plan walk an index of
    /// the sort keys in order when that reads fewer rows than sorting.
    func plan(selector: Selector, sort: [QueryPlan.SortKey], useIndex: Bool, wanted: Int?, db: Database) throws -> Reading {
        guard useIndex else { return .plan(QueryPlan.scan(sort: sort)) }
        let (indexes, textIndexes) = try declared(db)
        func candidates() throws -> Set<Int64>? {
            try CandidateSet(indexes: indexes, textIndexes: textIndexes, db: db).docNums(selector)
        }
        // A selector that asks for a candidate set is read from one whenever one is found,
        // whatever index plan there is: no plan need be chosen first.
        if selector.wantsCandidateSet, let docNums = try candidates() { return .candidates(docNums) }
        let rowCount: QueryPlan.RowCount = { index, leadingKeys in
            guard let leadingKeys else { return try? StoreCounters.value(db, StoreCounters.index(index.number)) }
            var rows = 0
            for key in Set(leadingKeys) {
                // A key without a counter has no rows.
                guard let count = try? StoreCounters.value(db, StoreCounters.index(index.number, leadingKey: key)) ?? 0 else { return nil }
                rows += count
            }
            return rows
        }
        let plan = QueryPlan.choose(selector: selector, sort: sort, indexes: indexes, wanted: wanted, rowCount: rowCount)
        if !selector.wantsCandidateSet, plan.index == nil, let docNums = try candidates() { return .candidates(docNums) }
        return .plan(plan)
    }

    /// Every declared query index (``QueryIndex/all(_:)``), from ``declaredIndexes`` while the
    /// schema has not changed.
    func queryIndexes(_ db: Database) throws -> [QueryIndex] {
        try declared(db).indexes
    }

    /// Every declared query and text index, from ``declaredIndexes`` while the schema has not
    /// changed (reading `PRAGMA schema_version` costs no page read).
    private func declared(_ db: Database) throws -> (indexes: [QueryIndex], textIndexes: [TextIndex]) {
        let version = try Int32.fetchOne(db.cachedStatement(sql: "PRAGMA schema_version")) ?? 0
        if let kept = declaredIndexes.withLock({ $0?.schemaVersion == version ? $0 : nil }) { return (kept.indexes, kept.textIndexes) }
        let indexes = try QueryIndex.all(db)
        let textIndexes = try TextIndex.all(db)
        declaredIndexes.withLock { $0 = (version, indexes, textIndexes) }
        return (indexes, textIndexes)
    }

    /// The most rows a late page reads from its page source (``page(_:plan:limit:skip:keeping:)``);
    /// a longer one steps through the plan's rows instead.
    static let latePageLimit = 1000

    /// The winners of one page of an exact, sorted plan, in its order, read in one statement
    /// from the page's source (``pageSource(_:plan:limit:skip:)``). With `keeping`, bodies
    /// hold only those members.
    static func page(_ db: Database, plan: QueryPlan, limit: Int, skip: Int,
                             keeping: Set<String>?) throws -> [DocumentRevision] {
        guard let source = try pageSource(db, plan: plan, limit: max(0, limit), skip: skip) else { return [] }
        return try winnerRevisions(db, sql: QueryPlan.rows(from: source.sql, columns: keeping == nil ? QueryPlan.columns : LongBodyReader.partialColumns),
                                   arguments: StatementArguments(source.arguments), keeping: keeping)
    }

    /// Where one page of a sorted index plan comes from (`limit` negative: all the rest), as a
    /// source for `FROM` that joins `docs d` in the page's order, with its arguments: the
    /// index's rows from the position its ranks give when the page starts past a couple of
    /// buckets and the ranks add up, else the plan's ``QueryPlan/pagedSource``, which steps
    /// over the rows before the page in the index alone. `nil` for a plan without one.
    static func pageSource(_ db: Database, plan: QueryPlan, limit: Int, skip: Int) throws
        -> (sql: String, arguments: [any DatabaseValueConvertible])? {
        if let ranks = plan.ranks, skip >= 2 * IndexRanks.bucketSize, let position = try ranks.seek(db, skip: skip) {
            return (ranks.orderedSource, [position.key, position.doc, limit, position.offset])
        }
        return plan.pagedSource.map { ($0, plan.arguments + [limit, max(0, skip)]) }
    }

    /// The document IDs of one page of an index plan (`limit` negative: all the rest), read
    /// from the index alone, in order (``pageSource(_:plan:limit:skip:)``).
    static func pageIDs(_ db: Database, plan: QueryPlan, limit: Int, skip: Int) throws -> [String] {
        if let source = try pageSource(db, plan: plan, limit: limit, skip: skip) {
            return try String.fetchAll(db.reusableStatement(sql: "SELECT d.doc_id FROM \(source.sql)", argumentCount: source.arguments.count),
                                       arguments: StatementArguments(source.arguments))
        }
        guard let pagedIDSQL = plan.pagedIDSQL else { return [] }
        return try String.fetchAll(db.reusableStatement(sql: pagedIDSQL, argumentCount: plan.arguments.count + 2),
                                   arguments: StatementArguments(plan.arguments + [limit, max(0, skip)]))
    }

    /// How many matches a query reads at most (skip + limit), `nil` without a limit.
    static func wanted(_ query: Query) -> Int? {
        query.limit.map { limit in
            let (sum, overflow) = max(0, limit).addingReportingOverflow(max(0, query.skip))
            return overflow ? Int.max : sum
        }
    }

    /// What ``find(_:)`` reads: an index or scan plan, or a candidate set.
    enum Reading {
        case plan(QueryPlan)
        case candidates(Set<Int64>)
    }

    /// The planner's form of sort fields.
    static func sortKeys(_ sort: [SortField]) throws -> [QueryPlan.SortKey] {
        try DocumentStoreError.reporting {
            try sort.map { QueryPlan.SortKey(key: QueryIndex.Key(path: try FieldPath($0.field), folded: $0.folded), ascending: $0.ascending) }
        }
    }

    /// Sorts by the sort keys in collation order, a missing field first (ascending).
    static func sorted(_ revisions: [DocumentRevision], by sort: [QueryPlan.SortKey]) -> [DocumentRevision] {
        guard !sort.isEmpty else { return revisions }
        let keyed = revisions.map { revision in
            (revision, sort.map { sortKey in
                sortKey.key.path.value(in: revision.body).map { [UInt8](QueryIndex.keyData($0, folded: sortKey.key.folded)) }
            })
        }
        return keyed.sorted { lhs, rhs in
            for (position, sortKey) in sort.enumerated() {
                let ascending = sortKey.ascending
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
}


/// Ends a ``DocumentStoreReading/forEachMatch(of:_:)`` reading when its body throws; the
/// body's own error is kept apart and rethrown.
private struct MatchStopped: Error {}
