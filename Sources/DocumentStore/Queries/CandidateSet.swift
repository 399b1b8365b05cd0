import Foundation
import GRDB
import DocumentFormat

/// The documents a selector can match, found without reading bodies: `_id` lists from the
/// `docs` table, `$text` from text indexes, equalities and `$in` lists from the leading column
/// of a query index, combined through `$and` (intersection) and `$or` (union). A selector
/// with some other condition that no index serves has no candidate set; the planner then
/// falls back to an index plan or a scan. Candidates are always checked against the whole
/// selector afterwards, so a set only has to contain every match.
struct CandidateSet {
    let indexes: [QueryIndex]
    let textIndexes: [TextIndex]
    let db: Database

    /// Largest `IN` list bound in one statement.
    private static let chunk = 500

    /// The candidate document numbers of `selector`, or `nil` when they cannot be narrowed.
    func docNums(_ selector: Selector) throws -> Set<Int64>? {
        try resolve(selector, context: selector.requiredConditions, weak: true)
    }

    /// `context` holds conditions every match satisfies (they decide which partial indexes
    /// apply). Strong conditions (`_id`, `$text`, `$or` of such) are looked up first; weak
    /// ones (an equality or `$in` on an index's leading column, which may match most of the
    /// store, like the entity of every recipe) only when nothing strong narrows the set.
    private func resolve(_ selector: Selector, context: [(FieldPath, FieldCondition)], weak: Bool) throws -> Set<Int64>? {
        switch selector {
        case .field(let path, let condition):
            for allowWeak in weak ? [false, true] : [false] {
                var result: Set<Int64>?
                for conjunct in condition.conjuncts where allowWeak || isStrong(path, conjunct) {
                    guard let found = try lookup(path, conjunct, context: context) else { continue }
                    result = result.map { $0.intersection(found) } ?? found
                }
                if let result { return result }
            }
            return nil
        case .and(let parts):
            for allowWeak in weak ? [false, true] : [false] {
                var result: Set<Int64>?
                for part in parts {
                    guard let found = try resolve(part, context: context, weak: allowWeak) else { continue }
                    result = result.map { $0.intersection(found) } ?? found
                }
                if let result { return result }
            }
            return nil
        case .or(let parts):
            var union = Set<Int64>()
            for part in parts {
                guard let found = try resolve(part, context: context + part.requiredConditions, weak: true) else { return nil }
                union.formUnion(found)
            }
            return union
        case .all, .nor, .not:
            return nil
        }
    }

    /// Whether a condition narrows by itself: an `_id` list or a text search.
    private func isStrong(_ path: FieldPath, _ condition: FieldCondition) -> Bool {
        if path.isDocumentID { return true }
        if case .text = condition { return true }
        return false
    }

    private func lookup(_ path: FieldPath, _ condition: FieldCondition,
                        context: [(FieldPath, FieldCondition)]) throws -> Set<Int64>? {
        if path.isDocumentID {
            let ids: [String]
            switch condition {
            case .eq(.string(let id)): ids = [id]
            case .in(let list): ids = list.values.compactMap(\.stringValue)
            default: return nil
            }
            let json = TreeRows.idList(ids)
            return Set(try Int64.fetchAll(db.cachedStatement(
                sql: "SELECT doc_num FROM docs WHERE doc_id IN (SELECT value FROM json_each(?))"), arguments: [json]))
        }
        switch condition {
        case .text(let text):
            guard let index = textIndexes.first(where: { $0.path == path && $0.partial.isImplied(by: context) }),
                  let found = try index.search(db, text: text) else { return nil }
            return Set(found)
        case .eq(let value):
            return try keyLookup(path, folded: false, keys: [QueryIndex.keyData(value, folded: false)], context: context)
        case .in(let list):
            return try keyLookup(path, folded: false, keys: list.values.map { QueryIndex.keyData($0, folded: false) }, context: context)
        case .foldEq(let text):
            return try keyLookup(path, folded: true, keys: [QueryIndex.keyData(.string(text), folded: true)], context: context)
        default:
            return nil
        }
    }

    /// Documents whose key in the leading column of a usable index is one of `keys`.
    private func keyLookup(_ path: FieldPath, folded: Bool, keys: [Data],
                           context: [(FieldPath, FieldCondition)]) throws -> Set<Int64>? {
        guard let index = indexes.first(where: {
            $0.keys.first == QueryIndex.Key(path: path, folded: folded) && $0.partial.isImplied(by: context)
        }) else { return nil }
        var result = Set<Int64>()
        var start = 0
        while start < keys.count {
            let slice = Array(keys[start..<min(keys.count, start + Self.chunk)])
            let sql = "SELECT doc_num FROM \(index.table) WHERE \(index.column(0)) IN ("
                + slice.map { _ in "?" }.joined(separator: ",") + ")"
            result.formUnion(try Int64.fetchAll(db.reusableStatement(sql: sql, argumentCount: slice.count), arguments: StatementArguments(slice)))
            start += Self.chunk
        }
        return result
    }

    /// The rows of the candidates (live winners), for ``DocumentStore/find(_:)``.
    static func plan(_ docNums: Set<Int64>, sort: [SortField]) -> QueryPlan {
        let json = "[" + docNums.sorted().map(String.init).joined(separator: ",") + "]"
        return QueryPlan(index: nil, sql: """
            SELECT \(QueryPlan.columns) FROM docs d JOIN revs r ON r.rev_num = d.winner_rev_num
            WHERE d.deleted = 0 AND d.doc_num IN (SELECT value FROM json_each(?))
            """, arguments: [json], ordered: sort.isEmpty)
    }
}
