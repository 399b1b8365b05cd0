import Foundation
import GRDB
import DocumentFormat

/// Reads of the document and revision tables shared by reads and writes.
enum TreeRows {
    /// Calls `body` with the number and winning body of every live document other than a
    /// design document, in document order: what a new index is built from.
    static func forEachLiveBody(_ db: Database, _ body: (Int64, JSONObject) throws -> Void) throws {
        let cursor = try Row.fetchCursor(db, sql: """
            SELECT d.doc_num, r.body FROM docs d JOIN revs r ON r.rev_num = d.winner_rev_num
            WHERE d.deleted = 0 AND \(DesignDocuments.excludedSQL)
            ORDER BY d.doc_num
            """)
        while let row = try cursor.next() {
            try body(row[0], try (row[1] as Data?).map(JSONValue.parseObject) ?? [:])
        }
    }

    static func doc(_ db: Database, id: String) throws -> DocRow? {
        let statement = try db.cachedStatement(
            sql: "SELECT doc_num, winner_rev_num, deleted, seq FROM docs WHERE doc_id = ?")
        guard let row = try Row.fetchOne(statement, arguments: [id]) else { return nil }
        return DocRow(docNum: row[0], id: id, winnerRevNum: row[1], deleted: row[2], seq: row[3])
    }

    /// Document IDs as the one argument of `… IN (SELECT value FROM json_each(?))`: a JSON
    /// array, so thousands of IDs bind as one value.
    static func idList(_ ids: [String]) -> String {
        String(decoding: CanonicalJSON.encode(.array(ids.map { .string($0) })), as: UTF8.self)
    }

    /// The rows of several documents at once (one statement instead of one per ID), by ID;
    /// IDs without a row are absent.
    static func docs(_ db: Database, ids: [String]) throws -> [String: DocRow] {
        let json = TreeRows.idList(ids)
        var rows: [String: DocRow] = [:]
        rows.reserveCapacity(ids.count)
        let cursor = try Row.fetchCursor(db, sql: """
            SELECT doc_num, doc_id, winner_rev_num, deleted, seq FROM docs WHERE doc_id IN (SELECT value FROM json_each(?))
            """, arguments: [json])
        while let row = try cursor.next() {
            let id: String = row[1]
            rows[id] = DocRow(docNum: row[0], id: id, winnerRevNum: row[2], deleted: row[3], seq: row[4])
        }
        return rows
    }

    static func rev(_ db: Database, docNum: Int64, rev: RevisionID) throws -> RevRow? {
        let statement = try db.cachedStatement(sql: """
            SELECT rev_num, rev, parent, deleted, leaf, body, atts FROM revs WHERE doc_num = ? AND rev = ?
            """)
        return try Row.fetchOne(statement, arguments: [docNum, rev.description]).map(revRow)
    }

    static func rev(_ db: Database, revNum: Int64) throws -> RevRow? {
        let statement = try db.cachedStatement(sql: """
            SELECT rev_num, rev, parent, deleted, leaf, body, atts FROM revs WHERE rev_num = ?
            """)
        return try Row.fetchOne(statement, arguments: [revNum]).map(revRow)
    }

    static func exists(_ db: Database, docNum: Int64, rev: RevisionID) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT rev_num FROM revs WHERE doc_num = ? AND rev = ?"),
                           arguments: [docNum, rev.description])
    }

    /// The leaves of a document's tree, winner first.
    static func leaves(_ db: Database, docNum: Int64) throws -> [LeafRow] {
        let statement = try db.cachedStatement(
            sql: "SELECT rev_num, rev, deleted FROM revs WHERE doc_num = ? AND leaf = 1")
        var leaves: [LeafRow] = []
        let cursor = try Row.fetchCursor(statement, arguments: [docNum])
        while let row = try cursor.next() {
            leaves.append(LeafRow(revNum: row[0], rev: try parseRev(row[1]), deleted: row[2]))
        }
        return leaves.sorted(by: LeafRow.winsOver)
    }

    /// The leaves of a document in the order CouchDB's revision tree keeps them: a walk from
    /// the roots, each node's children taken in the order of their revision IDs. CouchDB lists
    /// `open_revs=all` in this order and `possible_ancestors` in its reverse, so every replica
    /// of a document answers alike.
    static func leavesInTreeOrder(_ db: Database, docNum: Int64) throws -> [RevisionID] {
        let statement = try db.cachedStatement(sql: "SELECT rev_num, rev, parent, leaf FROM revs WHERE doc_num = ?")
        var children: [Int64?: [(revNum: Int64, rev: RevisionID)]] = [:]
        var leafRows = Set<Int64>()
        let cursor = try Row.fetchCursor(statement, arguments: [docNum])
        while let row = try cursor.next() {
            let revNum: Int64 = row[0]
            children[row[2] as Int64?, default: []].append((revNum, try parseRev(row[1])))
            if row[3] as Bool { leafRows.insert(revNum) }
        }
        var ordered: [RevisionID] = []
        // Depth first without recursion: a stack whose top is the next node to visit.
        var stack = (children[nil] ?? []).sorted { $0.rev < $1.rev }.reversed().map { $0 }
        while let node = stack.popLast() {
            if leafRows.contains(node.revNum) { ordered.append(node.rev) }
            stack.append(contentsOf: (children[node.revNum] ?? []).sorted { $0.rev < $1.rev }.reversed())
        }
        return ordered
    }

    /// The ancestry of a revision, itself first, newest first.
    static func history(_ db: Database, revNum: Int64) throws -> [RevisionID] {
        let statement = try db.cachedStatement(sql: """
            WITH RECURSIVE chain(rev_num, rev, parent, depth) AS (
                SELECT rev_num, rev, parent, 0 FROM revs WHERE rev_num = ?
                UNION ALL
                SELECT r.rev_num, r.rev, r.parent, chain.depth + 1 FROM revs r JOIN chain ON r.rev_num = chain.parent
            )
            SELECT rev FROM chain ORDER BY depth
            """)
        return try String.fetchAll(statement, arguments: [revNum]).map(parseRev)
    }

    /// Builds the public value of a revision row that has a body.
    /// The revision of a row; with `keeping`, its body holds only those top-level members
    /// (the rest are not parsed).
    static func revision(_ row: RevRow, id: String, sequence: Int64, keeping: Set<String>? = nil) throws -> DocumentRevision {
        let body = try row.body.map { bytes in
            try keeping.map { try JSONParser.parseObject(bytes, keeping: $0) } ?? JSONValue.parseObject(bytes)
        }
        return DocumentRevision(id: id, rev: row.rev, deleted: row.deleted, body: body ?? [:],
                                attachments: AttachmentStorage.decodeMetadata(row.atts), sequence: sequence)
    }

    static func parseRev(_ text: String) throws -> RevisionID {
        guard let rev = RevisionID(text) else {
            throw DocumentStoreError.storage("stored revision ID '\(text)' is malformed")
        }
        return rev
    }

    /// A revision row from the first seven columns of `row`, in the order the queries here
    /// select them (`rev_num, rev, parent, deleted, leaf, body, atts`).
    static func revRow(_ row: Row) throws -> RevRow {
        RevRow(revNum: row[0], rev: try parseRev(row[1]), parent: row[2], deleted: row[3], leaf: row[4],
               body: row[5], atts: row[6])
    }
}

/// A document's row: its winner and the sequence of its latest change.
struct DocRow: Sendable {
    let docNum: Int64
    let id: String
    let winnerRevNum: Int64
    let deleted: Bool
    let seq: Int64
}

/// A leaf of a document's tree, enough to choose the winner.
struct LeafRow: Sendable {
    let revNum: Int64
    let rev: RevisionID
    let deleted: Bool

    /// CouchDB's winner order: live before deleted, then the greater revision ID.
    static func winsOver(_ a: LeafRow, _ b: LeafRow) -> Bool {
        if a.deleted != b.deleted { return !a.deleted }
        return b.rev < a.rev
    }
}

/// A revision's row in a document's tree.
struct RevRow: Sendable {
    let revNum: Int64
    let rev: RevisionID
    let parent: Int64?
    let deleted: Bool
    let leaf: Bool
    let body: Data?
    let atts: Data?
}
