import Foundation
import GRDB
import DocumentFormat

extension StoreTransaction {
    /// Removes the leaf revisions `revisions` of document `id` from its tree, with each one's
    /// ancestors that no other branch shares (CouchDB's purge), then chooses the winner among
    /// the leaves left and keeps the indexes and counters in step. A document left without
    /// revisions is removed altogether. Returns the revisions purged: those that were leaves;
    /// others (unknown, or inner revisions) are passed over, as CouchDB does.
    mutating func purge(id: String, revisions: [RevisionID]) throws -> [RevisionID] {
        guard let doc = try TreeRows.doc(db, id: id) else { return [] }
        var revNumOf: [String: Int64] = [:]
        var parentOf: [Int64: Int64] = [:]
        var leaves = Set<Int64>()
        var childCount: [Int64: Int] = [:]
        var total = 0
        let cursor = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT rev_num, rev, parent, leaf FROM revs WHERE doc_num = ?"), arguments: [doc.docNum])
        while let row = try cursor.next() {
            let revNum: Int64 = row[0]
            total += 1
            revNumOf[row[1] as String] = revNum
            if let parent: Int64 = row[2] {
                parentOf[revNum] = parent
                childCount[parent, default: 0] += 1
            }
            if row[3] as Bool { leaves.insert(revNum) }
        }
        var purged: [RevisionID] = []
        var removed = Set<Int64>()
        for rev in revisions {
            guard let leaf = revNumOf[rev.description], leaves.contains(leaf), !removed.contains(leaf) else { continue }
            purged.append(rev)
            var current = leaf
            while true {
                removed.insert(current)
                guard let parent = parentOf[current], !removed.contains(parent) else { break }
                childCount[parent, default: 1] -= 1
                guard childCount[parent] == 0 else { break }
                current = parent
            }
        }
        guard !purged.isEmpty else { return [] }
        let statement = try db.cachedStatement(sql: "DELETE FROM revs WHERE rev_num = ?")
        for revNum in removed { try statement.execute(arguments: [revNum]) }
        if removed.count == total {
            // Nothing left: the document goes, from the indexes and the counters too.
            if !DesignDocuments.isDesign(id), !doc.deleted {
                var deltas: [String: Int] = [:]
                for index in indexes { try index.remove(db, docNum: doc.docNum, deltas: &deltas) }
                for position in textIndexes.indices { setText(nil, index: position, docNum: doc.docNum, isNew: false) }
                try StoreCounters.add(db, deltas)
            }
            try db.execute(sql: "DELETE FROM docs WHERE doc_num = ?", arguments: [doc.docNum])
            var deltas: [String: Int] = [StoreCounters.documents: -1]
            if !doc.deleted { deltas[StoreCounters.live] = -1 }
            try StoreCounters.add(db, deltas)
            return purged
        }
        guard let winner = try TreeRows.leaves(db, docNum: doc.docNum).first,
              let row = try TreeRows.rev(db, revNum: winner.revNum) else { return purged }
        let body = try row.body.map(JSONValue.parseObject) ?? [:]
        _ = try settle(docNum: doc.docNum, id: id, existing: doc, changed: winner, changedBody: body)
        return purged
    }
}
