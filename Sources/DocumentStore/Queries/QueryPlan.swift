import Foundation
import GRDB
import DocumentFormat

/// How a query reads candidates: which index (if any), the SQL constraints on its key columns,
/// and whether the rows come out already in the requested sort order. Candidates are always
/// checked against the full selector afterwards, so a plan only has to return a superset.
struct QueryPlan {
    /// One sort key as the planner sees it: the key column it needs and the direction.
    struct SortKey {
        let key: QueryIndex.Key
        let ascending: Bool
    }

    let index: QueryIndex?
    private(set) var sql: String
    let arguments: [any DatabaseValueConvertible]
    /// Rows come in the query's sort order, so reading can stop after skip + limit matches.
    let ordered: Bool
    /// The SQL constraints alone decide the matches (no body needs checking), so the matches
    /// can be counted in the index without reading a single document.
    var exact = false
    /// The index constraints for counting: `FROM … WHERE …` over the index table alone.
    var countSQL: String?
    /// How many leading index fields the SQL constrains (set with `countSQL`).
    var constrainedFields: Int?
    /// The keys the first column must equal (one for an equality, several for `$in`), when
    /// it is constrained that way.
    var leadingKeys: [Data]?
    /// One page of the same rows as ``sql`` with the document ID as the only column, for an
    /// unsorted index plan (a sorted one pages through ``pagedSource``): what a query needs
    /// when the index decides it alone. It takes ``arguments`` then the page's limit and
    /// offset.
    var pagedIDSQL: String?
    /// For a sorted index plan, where one page of its rows comes from, as a source for a
    /// query's `FROM`: the document numbers of the page (a sub-query `ordered`, taking
    /// ``arguments`` then the page's limit and offset), joined to `docs d` in order. The limit
    /// and offset apply to the index rows before any document is looked up, so SQLite steps
    /// over a late page's skipped entries in the index alone. Index tables hold no design
    /// documents (`DesignDocuments`), so no skipped row needs its ID checked.
    var pagedSource: String?
    /// The ranks of the plan's index when the plan reads the whole index in its ascending
    /// order, so a late page can be found by position (``IndexRanks/seek(_:skip:)``) instead
    /// of by stepping over the rows before it.
    var ranks: IndexRanks?

    static let columns = "d.doc_id, d.seq, r.rev_num, r.rev, r.parent, r.deleted, r.leaf, r.body, r.atts"

    /// Where ``pagedIDSQL`` and ``pagedSource`` take their page. SQLite reads a negative limit
    /// as none.
    static let pageClause = "LIMIT ? OFFSET ?"

    /// A source for `FROM` of the documents a sub-query of document numbers lists, in its
    /// order: the sub-query as `ordered`, a co-routine SQLite keeps as the outer loop (its
    /// `LIMIT` stops it from being flattened into the join, which would drop its `ORDER BY`),
    /// joined to `docs d`.
    static func orderedSource(_ docNums: String) -> String {
        "(\(docNums)) ordered CROSS JOIN docs d ON d.doc_num = ordered.doc_num"
    }

    /// The winners' rows of a source that joins `docs d`, as `columns` (``columns`` or a
    /// partial read's).
    static func rows(from source: String, columns: String = columns) -> String {
        "SELECT \(columns) FROM \(source) CROSS JOIN revs r ON r.rev_num = d.winner_rev_num"
    }

    /// The same plan for a partial read: its rows leave out long bodies, whose members
    /// ``LongBodyReader`` then reads from their beginning. Every plan's SQL starts with
    /// ``columns``; one that did not would be kept as it is, reading whole bodies.
    func readingPartially() -> QueryPlan {
        let full = "SELECT \(Self.columns)"
        guard sql.hasPrefix(full) else { return self }
        var plan = self
        plan.sql = "SELECT \(LongBodyReader.partialColumns)" + sql.dropFirst(full.count)
        return plan
    }

    /// A full scan of live documents.
    static func scan(sort: [SortKey]) -> QueryPlan {
        QueryPlan(index: nil, sql: """
            SELECT \(columns) FROM docs d JOIN revs r ON r.rev_num = d.winner_rev_num WHERE d.deleted = 0
            """, arguments: [], ordered: sort.isEmpty)
    }

    /// The number of rows of an index (`leadingKeys` nil), or of the rows of an index that
    /// counts by leading key whose first column is one of `leadingKeys`; `nil` when unknown.
    typealias RowCount = (_ index: QueryIndex, _ leadingKeys: [Data]?) -> Int?

    /// The best index plan for the selector and sort, or a scan when no index helps. With the
    /// number of rows wanted (skip + limit) and the index row counts, a sorted plan may walk
    /// an index of the sort keys in order instead of sorting the rows its index selects.
    static func choose(selector: Selector, sort: [SortKey], indexes: [QueryIndex], wanted: Int? = nil,
                       rowCount: RowCount? = nil) -> QueryPlan {
        let required = selector.requiredConditions
        let constraints = FieldConstraints.collect(required)
        let usable = indexes.filter { $0.partial.isImplied(by: required) }
        // Indexes are ranked first and only the winner's SQL is written: building every
        // candidate's statements (and reading the row counters a walked sort asks for) would
        // cost a fetch more than choosing.
        var best: (score: Int, joins: Int, index: QueryIndex)?
        for index in usable {
            guard let candidate = rank(index: index, constraints: constraints, sort: sort, usable: usable) else { continue }
            // Equal scores: the plan that joins fewer indexes for its sort.
            if best == nil || candidate.score > best!.score || (candidate.score == best!.score && candidate.joins < best!.joins) {
                best = (candidate.score, candidate.joins, index)
            }
        }
        let sizes = wanted.flatMap { wanted in rowCount.map { (wanted, $0) } }
        guard let best else { return scan(sort: sort) }
        var chosen = plan(index: best.index, constraints: constraints, sort: sort, usable: usable, sizes: sizes)
        chosen.exact = isExact(selector, servedBy: chosen, index: best.index)
        return chosen
    }

    /// How well `index` serves the constraints and sort, without writing its SQL: the
    /// score (higher is better) and the number of other indexes its sort joins; `nil` when
    /// it helps in no way.
    private static func rank(index: QueryIndex, constraints: [QueryIndex.Key: FieldConstraints], sort: [SortKey],
                             usable: [QueryIndex]) -> (score: Int, joins: Int)? {
        // Each equality of the partial filter narrows like an equality on a key column, and a
        // little more: it costs nothing to read, and a whole partial index is counted by its
        // row counter. The sort served earns one point.
        var score = index.partial.equalities.count * 5
        for key in index.keys {
            guard let constraint = constraints[key], constraint.usable else { break }
            if constraint.equal != nil {
                score += 4
                continue
            }
            score += 2
            break
        }
        let sortSource = sort.isEmpty ? nil : sortColumns(sort, index: index, usable: usable)
        if sortSource != nil { score += 1 }
        guard score > 0 else { return nil }
        return (score, sortSource?.joins.count ?? 0)
    }

    /// Where each sort key's column comes from when `index` reads the rows: its own column,
    /// or the column of another usable index joined by document number (aliased
    /// `sort_by_<table>`, so a query plan names the index it sorts by).
    /// Every index usable for the selector holds a row for every document that can match
    /// (its partial filter is implied), so the join drops none. `nil` when some key is in no
    /// usable index.
    private static func sortColumns(_ sort: [SortKey], index: QueryIndex, usable: [QueryIndex])
        -> (columns: [String], joins: [String])? {
        var columns: [String] = []
        var joined = Set<Int64>()
        var joins: [String] = []
        for sortKey in sort {
            if let position = index.keys.firstIndex(of: sortKey.key) {
                columns.append("x.\(index.column(position))")
                continue
            }
            // Prefer an index the key leads (its own small table), then any that holds it.
            let holders = usable.filter { $0.number != index.number && $0.keys.contains(sortKey.key) }
            guard let other = holders.first(where: { $0.keys.first == sortKey.key }) ?? holders.first,
                  let position = other.keys.firstIndex(of: sortKey.key) else { return nil }
            let alias = "sort_by_" + other.table
            if joined.insert(other.number).inserted {
                joins.append(" JOIN \(other.table) \(alias) ON \(alias).doc_num = x.doc_num")
            }
            columns.append("\(alias).\(other.column(position))")
        }
        return (columns, joins)
    }

    /// Whether the index clauses of `plan` decide the selector on their own: the selector is a
    /// conjunction of one string equality, string `$in` or `$foldEq` per field, and those
    /// fields are exactly the ones the partial filter and the plan constrain. Only strings
    /// qualify because only their keys are as fine as JSON equality (large integers share a
    /// double's key).
    private static func isExact(_ selector: Selector, servedBy plan: QueryPlan, index: QueryIndex) -> Bool {
        guard let constrained = plan.constrainedFields, isConjunction(selector) else { return false }
        var conditions = selector.requiredConditions
        conditions.removeAll { path, condition in
            guard case .eq(let value) = condition else { return false }
            return index.partial.equalities.contains { $0.0 == path && JSONEquality.equal($0.1, value) }
        }
        var keys = Set<QueryIndex.Key>()
        for (path, condition) in conditions {
            let key: QueryIndex.Key
            switch condition {
            case .eq(.string): key = QueryIndex.Key(path: path, folded: false)
            case .in(let list) where list.values.allSatisfy({ if case .string = $0 { return true } else { return false } }):
                key = QueryIndex.Key(path: path, folded: false)
            case .foldEq: key = QueryIndex.Key(path: path, folded: true)
            default: return false
            }
            guard keys.insert(key).inserted else { return false }
        }
        return keys == Set(index.keys.prefix(constrained)).subtracting(partialKeys(index))
    }

    /// The key columns a partial filter's equalities already fix (an entity index keyed by
    /// the entity name it is limited to).
    private static func partialKeys(_ index: QueryIndex) -> Set<QueryIndex.Key> {
        Set(index.partial.equalities.map { QueryIndex.Key(path: $0.0, folded: false) })
    }

    /// Whether an exact plan selects every row of its index, so the index's row counter is
    /// the count: each constrained column is one the partial filter fixes.
    var countsWholeIndex: Bool {
        guard exact, let index, let constrained = constrainedFields else { return false }
        return Set(index.keys.prefix(constrained)).isSubset(of: Self.partialKeys(index))
    }

    private static func isConjunction(_ selector: Selector) -> Bool {
        switch selector {
        case .field: return true
        case .and(let parts): return parts.allSatisfy(isConjunction)
        default: return false
        }
    }

    /// An index of the sort keys to walk in order, probing `index` for each row, when that
    /// reads fewer rows than sorting the ones `index` selects: with `matching` of its rows
    /// selected (from its per-leading-key counters) and `total` rows in the walked index,
    /// a page of `wanted` rows is reached after about `wanted × total / matching` of them.
    /// One type's first 50 recipes of 10,000 by name: about 250 rows walked, against 2,000
    /// sorted. Only when every sort key goes the same way, so the walk needs no sorter.
    private static func walkedIndex(_ sort: [SortKey], index: QueryIndex, leadingKeys: [Data]?, usable: [QueryIndex],
                                    sizes: (wanted: Int, rowCount: RowCount)?) -> QueryIndex? {
        guard let sizes, let leadingKeys, index.countsByLeadingKey,
              sort.allSatisfy({ $0.ascending == sort[0].ascending }),
              let walker = usable.first(where: { $0.number != index.number && Array($0.keys.prefix(sort.count)) == sort.map(\.key) }),
              let total = sizes.rowCount(walker, nil), let matching = sizes.rowCount(index, leadingKeys), matching > 0 else { return nil }
        return Double(sizes.wanted) * Double(total) < Double(matching) * Double(matching) ? walker : nil
    }

    /// The plan that reads the rows through `index`, for the index ``rank(index:constraints:sort:usable:)``
    /// chose.
    private static func plan(index: QueryIndex, constraints: [QueryIndex.Key: FieldConstraints], sort: [SortKey],
                             usable: [QueryIndex], sizes: (wanted: Int, rowCount: RowCount)?) -> QueryPlan {
        var clauses: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        var leadingKeys: [Data]?
        var constrained = 0
        var exactClauses = true
        for (position, key) in index.keys.enumerated() {
            guard let constraint = constraints[key], constraint.usable else { break }
            let column = "x.\(index.column(position))"
            if position == 0 { leadingKeys = constraint.equal.map { [Data($0)] } ?? constraint.inList?.map { Data($0) } }
            if let equal = constraint.equal {
                clauses.append("\(column) = ?")
                arguments.append(Data(equal))
                constrained += 1
                continue
            }
            if let values = constraint.inList {
                clauses.append("\(column) IN (\(values.map { _ in "?" }.joined(separator: ",")))")
                arguments.append(contentsOf: values.map { Data($0) })
                constrained += 1
            } else {
                exactClauses = false
                clauses.append("\(column) IS NOT NULL")
                if let (key, inclusive) = constraint.lower {
                    clauses.append("\(column) \(inclusive ? ">=" : ">") ?")
                    arguments.append(Data(key))
                }
                if let (key, inclusive) = constraint.upper {
                    clauses.append("\(column) \(inclusive ? "<=" : "<") ?")
                    arguments.append(Data(key))
                }
            }
            break
        }
        // SQLite orders by the key columns (through the index when they lead it, else with a
        // sorter), so rows come out in sort order and reading stops after skip + limit. A sort
        // key this index lacks is read from another index joined by document number: the
        // sorter then orders the few rows this index selects (one recipe's ingredients by
        // display order, one type's recipes by name) and only the page is parsed.
        let sortSource = sort.isEmpty ? nil : sortColumns(sort, index: index, usable: usable)
        var plan: QueryPlan
        if let sortSource, !sortSource.joins.isEmpty,
           let walker = walkedIndex(sort, index: index, leadingKeys: leadingKeys, usable: usable, sizes: sizes) {
            // The sort index walked in order (aliased `walk_by_<table>`), each row checked
            // against this index's constraints; the co-routine stops with the page.
            let walk = "walk_by_" + walker.table
            let direction = sort[0].ascending ? "ASC" : "DESC"
            let ordered = { (page: String) in
                orderedSource("SELECT \(walk).doc_num AS doc_num FROM \(walker.table) \(walk) CROSS JOIN \(index.table) x"
                    + " ON x.doc_num = \(walk).doc_num" + clauses.joinedAsWhereClause + " ORDER BY "
                    + (sort.indices.map { "\(walk).\(walker.column($0)) \(direction)" } + ["\(walk).doc_num \(direction)"]).joined(separator: ", ")
                    + " \(page)")
            }
            plan = QueryPlan(index: index, sql: rows(from: ordered("LIMIT -1")), arguments: arguments, ordered: true,
                             pagedSource: ordered(Self.pageClause))
        } else if let sortSource {
            // Only document numbers go through the sorter, not the rows with their bodies
            // (sorting bodies costs many times more), in an ordered source
            // (``orderedSource(_:)``), so bodies are read in its order and only as far as
            // the page goes.
            let ordered = { (page: String) in
                orderedSource("SELECT x.doc_num AS doc_num FROM \(index.table) x" + sortSource.joins.joined()
                    + clauses.joinedAsWhereClause + " ORDER BY "
                    + zip(sortSource.columns, sort).map { column, key in "\(column) \(key.ascending ? "ASC" : "DESC")" }.joined(separator: ", ")
                    + ", x.doc_num \(page)")
            }
            plan = QueryPlan(index: index, sql: rows(from: ordered("LIMIT -1")), arguments: arguments, ordered: true,
                             pagedSource: ordered(Self.pageClause))
            if clauses.isEmpty, sortSource.joins.isEmpty, sort.count == 1, sort[0].ascending, sort[0].key == index.keys.first {
                plan.ranks = index.ranks
            }
        } else {
            let sql = """
                SELECT \(columns) FROM \(index.table) x JOIN docs d ON d.doc_num = x.doc_num
                JOIN revs r ON r.rev_num = d.winner_rev_num
                """ + clauses.joinedAsWhereClause
            plan = QueryPlan(index: index, sql: sql, arguments: arguments, ordered: sort.isEmpty,
                             pagedIDSQL: "SELECT d.doc_id FROM \(index.table) x JOIN docs d ON d.doc_num = x.doc_num"
                                + clauses.joinedAsWhereClause + " " + Self.pageClause)
        }
        if exactClauses {
            plan.countSQL = "SELECT COUNT(*) FROM \(index.table) x JOIN docs d ON d.doc_num = x.doc_num"
                + (clauses + [DesignDocuments.excludedSQL]).joinedAsWhereClause
            plan.constrainedFields = constrained
            plan.leadingKeys = leadingKeys
        }
        return plan
    }
}

extension [String] {
    /// ` WHERE a AND b …`, or nothing for no clauses.
    fileprivate var joinedAsWhereClause: String { isEmpty ? "" : " WHERE " + joined(separator: " AND ") }
}
