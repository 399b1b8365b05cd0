import Foundation
import GRDB

extension DocumentStore {
    /// Adds revisions made elsewhere with their ancestry (CouchDB's `new_edits=false`), in one
    /// transaction. Revisions already held are no-ops; missing ancestors become bodiless stubs.
    public func insertRevisions(_ revisions: [ReplicatedRevision]) throws {
        try writing { txn in
            for revision in revisions { try txn.insert(revision) }
        }
    }

    /// For each document, the asked-for revisions this store lacks and its leaves that could be
    /// their ancestors; documents with nothing missing are left out.
    public func revsDiff(_ request: [String: [RevisionID]]) throws -> [String: RevsDiffEntry] {
        try reading { db in
            var result: [String: RevsDiffEntry] = [:]
            for (id, revs) in request {
                guard let doc = try TreeRows.doc(db, id: id) else {
                    if !revs.isEmpty { result[id] = RevsDiffEntry(missing: Self.unique(revs), possibleAncestors: []) }
                    continue
                }
                var missing: [RevisionID] = []
                for rev in Self.unique(revs) where try TreeRows.exists(db, docNum: doc.docNum, rev: rev) == nil {
                    missing.append(rev)
                }
                guard let highest = missing.map(\.generation).max() else { continue }
                let ancestors = try TreeRows.leaves(db, docNum: doc.docNum)
                    .map(\.rev).filter { $0.generation < highest }
                result[id] = RevsDiffEntry(missing: missing, possibleAncestors: ancestors.sorted())
            }
            return result
        }
    }

    /// Documents changed after `since`, each once at its latest change, in sequence order, with
    /// all their leaf revisions; at most `limit` of them.
    public func changes(since: Int64, limit: Int) throws -> ChangesBatch {
        try reading { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT doc_num, doc_id, deleted, seq FROM docs WHERE seq > ? ORDER BY seq LIMIT ?"),
                arguments: [since, max(0, limit)])
            var changes: [Change] = []
            changes.reserveCapacity(rows.count)
            for row in rows {
                let leaves = try TreeRows.leaves(db, docNum: row[0])
                changes.append(Change(sequence: row[3], id: row[1], deleted: row[2], revisions: leaves.map(\.rev)))
            }
            return ChangesBatch(changes: changes, lastSequence: changes.last?.sequence ?? since)
        }
    }

    /// The sequence of the latest change (0 for an empty store).
    public var lastSequence: Int64 {
        get throws {
            try reading { db in try Int64.fetchOne(db, sql: "SELECT max(seq) FROM docs") ?? 0 }
        }
    }

    private static func unique(_ revs: [RevisionID]) -> [RevisionID] {
        var seen = Set<RevisionID>()
        return revs.filter { seen.insert($0).inserted }
    }
}
