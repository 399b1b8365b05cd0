import Foundation
import GRDB
public import DocumentFormat

extension DocumentStoreWriting {
    /// Adds revisions made elsewhere with their ancestry (CouchDB's `new_edits=false`), in one
    /// transaction. Revisions already held are no-ops; missing ancestors become bodiless stubs.
    public func insertRevisions(_ revisions: [ReplicatedRevision]) throws {
        try connection.writing { txn in
            for revision in revisions { try txn.insert(revision) }
        }
    }

    /// Inserts revisions as `insertRevisions` does, in one transaction; if the store refuses
    /// any of them (bad history, missing attachment, invalid ID…), inserts them one by one
    /// instead so the good ones land, and returns each refused revision with the store's
    /// error, which its caller words for its own replica (a server as CouchDB's error, a
    /// replication as a `DocumentFailure`). Storage failures (disk, corruption) are thrown.
    public func insertRevisionsReportingRefusals(_ revisions: [ReplicatedRevision]) throws
        -> [(id: String, rev: RevisionID, error: DocumentStoreError)]
    {
        if revisions.isEmpty { return [] }
        do {
            try insertRevisions(revisions)
            return []
        } catch let error as DocumentStoreError {
            if case .storage = error { throw error }
        }
        var refusals: [(id: String, rev: RevisionID, error: DocumentStoreError)] = []
        for revision in revisions {
            do {
                try insertRevisions([revision])
            } catch let error as DocumentStoreError {
                if case .storage = error { throw error }
                refusals.append((revision.id, revision.rev, error))
            }
        }
        return refusals
    }
}

extension DocumentStoreReading {
    /// Reads revisions with their ancestry (itself first, newest first) in one snapshot: the
    /// read side of a push, without a transaction per revision. A revision not held, or held
    /// without its body, comes back `nil`.
    public func revisionsWithHistory(_ wanted: [(id: String, rev: RevisionID)]) throws
        -> [(revision: DocumentRevision, history: [RevisionID])?]
    {
        try connection.reading { db in
            // One lookup per revision (the document's row joined to the revision's), and the
            // ancestry walked only for a revision that has a parent: most of a first push or
            // pull is first revisions, whose history is themselves.
            let statement = try db.cachedStatement(sql: """
                SELECT r.rev_num, r.rev, r.parent, r.deleted, r.leaf, r.body, r.atts, d.winner_rev_num, d.seq
                FROM docs d JOIN revs r ON r.doc_num = d.doc_num AND r.rev = ? WHERE d.doc_id = ?
                """)
            return try wanted.map { item -> (revision: DocumentRevision, history: [RevisionID])? in
                guard let found = try Row.fetchOne(statement, arguments: [item.rev.description, item.id]) else { return nil }
                let row = try TreeRows.revRow(found)
                guard row.body != nil else { return nil }
                let winner: Int64 = found[7]
                let revision = try TreeRows.revision(row, id: item.id, sequence: row.revNum == winner ? found[8] : 0)
                return (revision, row.parent == nil ? [row.rev] : try TreeRows.history(db, revNum: row.revNum))
            }
        }
    }

    /// For each document, the asked-for revisions this store lacks and its leaves that could be
    /// their ancestors; documents with nothing missing are left out.
    public func revsDiff(_ request: [String: [RevisionID]]) throws -> [String: RevsDiffEntry] {
        try connection.reading { db in
            var result: [String: RevsDiffEntry] = [:]
            for (id, revs) in request {
                guard let doc = try TreeRows.doc(db, id: id) else {
                    if !revs.isEmpty { result[id] = RevsDiffEntry(missing: DocumentStore.unique(revs), possibleAncestors: []) }
                    continue
                }
                var missing: [RevisionID] = []
                for rev in DocumentStore.unique(revs) where try TreeRows.exists(db, docNum: doc.docNum, rev: rev) == nil {
                    missing.append(rev)
                }
                guard let highest = missing.map(\.generation).max() else { continue }
                // In the reverse of the tree's leaf order, as CouchDB lists them.
                let ancestors = try TreeRows.leavesInTreeOrder(db, docNum: doc.docNum).reversed().filter { $0.generation < highest }
                result[id] = RevsDiffEntry(missing: missing, possibleAncestors: ancestors)
            }
            return result
        }
    }

    /// Documents changed after `since`, each once at its latest change, in sequence order, with
    /// all their leaf revisions; at most `limit` of them.
    public func changes(since: Int64, limit: Int) throws -> ChangesBatch {
        try connection.reading { db in
            // One query for the page and its leaves (rather than one leaves query per change).
            let statement = try db.cachedStatement(sql: """
                SELECT d.doc_id, d.deleted, d.seq, r.rev_num, r.rev, r.deleted
                FROM (SELECT doc_num, doc_id, deleted, seq FROM docs WHERE seq > ? ORDER BY seq LIMIT ?) AS d
                JOIN revs r ON r.doc_num = d.doc_num AND r.leaf = 1
                ORDER BY d.seq
                """)
            var changes: [Change] = []
            changes.reserveCapacity(max(0, min(limit, 10_000)))
            var current: (id: String, deleted: Bool, seq: Int64)?
            var leaves: [LeafRow] = []
            func flush() {
                guard let done = current else { return }
                changes.append(Change(sequence: done.seq, id: done.id, deleted: done.deleted,
                                      revisions: leaves.sorted(by: LeafRow.winsOver).map(\.rev)))
                leaves.removeAll(keepingCapacity: true)
            }
            let cursor = try Row.fetchCursor(statement, arguments: [since, max(0, limit)])
            while let row = try cursor.next() {
                let seq: Int64 = row[2]
                if current?.seq != seq {
                    flush()
                    current = (row[0], row[1], seq)
                }
                leaves.append(LeafRow(revNum: row[3], rev: try TreeRows.parseRev(row[4]), deleted: row[5]))
            }
            flush()
            return ChangesBatch(changes: changes, lastSequence: changes.last?.sequence ?? since)
        }
    }

    /// Calls `body` with every change after `since`, oldest first, reading `batch` changes
    /// at a time, and returns the last sequence read (`since` when there was none), where a
    /// later walk resumes. The one paging loop over this store's feed: replication, conflict
    /// listing, refreshes and sync bookkeeping all walk it through here.
    /// - Throws: ``DocumentStoreError`` from the reads, or what `body` throws.
    @discardableResult
    public func forEachChange(since: Int64 = 0, batch: Int = 1000, _ body: (Change) throws -> Void) throws -> Int64 {
        try walkChanges(since: since, batch: batch) { change in
            try body(change)
            return true
        }
    }

    /// Calls `body` with every change after `since`, oldest first, until it returns `false`,
    /// and returns the sequence of the last change it accepted (or the last one read, when
    /// the feed ran out first): where a later walk resumes without skipping the refused one.
    /// The same loop as ``forEachChange(since:batch:_:)``, for readers that stop early (a
    /// served feed that reached its `limit`).
    /// - Throws: ``DocumentStoreError`` from the reads, or what `body` throws.
    @discardableResult
    public func walkChanges(since: Int64 = 0, batch: Int = 1000, while body: (Change) throws -> Bool) throws -> Int64 {
        let batch = max(1, batch)
        var position = since
        while true {
            let page = try changes(since: position, limit: batch)
            if page.changes.isEmpty { return position }
            for change in page.changes {
                guard try body(change) else { return position }
                position = change.sequence
            }
            position = max(position, page.lastSequence)
        }
    }

    /// How many documents changed after `since` (each counted once, at its latest change):
    /// the `pending` figure of a changes feed, without reading the changes.
    public func changeCount(since: Int64) throws -> Int {
        try connection.reading { db in
            // From the start, every document: its counter, not a walk of the sequence index.
            if since <= 0, let all = try StoreCounters.value(db, StoreCounters.documents) { return all }
            return try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM docs WHERE seq > ?"), arguments: [since]) ?? 0
        }
    }
}

extension DocumentStoreReading {
    /// The sequence of the latest change (0 for an empty store).
    public var lastSequence: Int64 {
        get throws {
            try connection.reading { db in try Int64.fetchOne(db, sql: "SELECT max(seq) FROM docs") ?? 0 }
        }
    }
}

extension DocumentStore {
    static func unique(_ revs: [RevisionID]) -> [RevisionID] {
        var seen = Set<RevisionID>()
        return revs.filter { seen.insert($0).inserted }
    }
}

