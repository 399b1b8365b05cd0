import Foundation
import GRDB
public import DocumentFormat

/// Documents: creating, updating and deleting revisions, and reading them back, on any
/// connection (the store's own, a held reader or writer).
extension DocumentStoreWriting {
    /// Creates a document; a nil `id` gets a random one. An existing live document is a
    /// `.conflict`; an existing deleted one gets a new revision on top of its tombstone.
    /// `received`: the body as a client sent it, to hash the revision ID from as CouchDB
    /// would (see ``DocumentStore/WriteOperation``).
    @discardableResult
    public func create(id: String? = nil, body: JSONObject,
                       attachments: [AttachmentChange] = [], received: RevisionBody? = nil) throws -> DocumentRevision {
        let id = id ?? RandomIdentifier.compactHex()
        return try connection.writing { try $0.apply(.create, id: id, body: body, attachments: attachments, received: received) }
    }

    /// Makes a child of the leaf revision `parent`; attachments not changed are kept.
    /// `received`: as for ``create(id:body:attachments:received:)``.
    @discardableResult
    public func update(id: String, parent: RevisionID, body: JSONObject,
                       attachments: [AttachmentChange] = [], received: RevisionBody? = nil) throws -> DocumentRevision {
        try connection.writing { try $0.apply(.update(parent: parent), id: id, body: body, attachments: attachments, received: received) }
    }

    /// Tombstones the leaf revision `parent`; `received` is a body sent with the deletion,
    /// which the ID is hashed from (the tombstone keeps none).
    @discardableResult
    public func delete(id: String, parent: RevisionID, received: RevisionBody? = nil) throws -> DocumentRevision {
        try connection.writing { try $0.apply(.delete(parent: parent), id: id, body: [:], attachments: [], received: received) }
    }

    /// Several writes in one transaction, all or nothing; returns the revisions made, in order.
    @discardableResult
    public func write(_ operations: [DocumentStore.WriteOperation]) throws -> [DocumentRevision] {
        try connection.writing { txn in
            // The rows of the documents a batch creates are read with one statement, when no
            // other operation of the batch touches a created ID (a later operation on the same
            // ID must see what an earlier one did). Updates and deletes read their own rows.
            var created: [String] = []
            var others = Set<String>()
            for operation in operations {
                switch operation {
                case .create(let id, _, _, _): created.append(id)
                case .update(let id, _, _, _, _), .delete(let id, _, _): others.insert(id)
                }
            }
            let createdOnce = Set(created)
            let known: [String: DocRow]? = created.count > 1 && createdOnce.count == created.count && createdOnce.isDisjoint(with: others)
                ? try TreeRows.docs(txn.db, ids: created) : nil
            return try operations.map { operation in
                guard case .create(let id, _, _, _) = operation, let known else { return try txn.perform(operation) }
                return try txn.perform(operation, known: known[id])
            }
        }
    }

    /// Several independent writes in one transaction, as CouchDB's `_bulk_docs` makes them:
    /// each in a savepoint of its own, so one the store refuses (a conflict, a bad ID or
    /// body) is reported in its place and the others still commit, together, with one sync
    /// to disk. A storage failure ends the whole batch (nothing commits) and is thrown.
    public func writeEach(_ operations: [DocumentStore.WriteOperation]) throws -> [Result<DocumentRevision, DocumentStoreError>] {
        try connection.writing { txn in
            try operations.map { operation in
                do {
                    return .success(try txn.undoable { try $0.perform(operation) })
                } catch let refusal as DocumentStoreError {
                    if case .storage = refusal { throw refusal }
                    return .failure(refusal)
                } catch let refusal as DocumentFormatError {
                    return .failure(DocumentStoreError(refusal))
                }
            }
        }
    }

    /// Tombstones every live leaf except `keeping`, in one transaction, so the document has no
    /// conflicts left; `.conflict` if `keeping` is not a live leaf.
    public func resolveConflicts(id: String, keeping: RevisionID) throws {
        try connection.writing { try $0.resolveConflicts(id: id, keeping: keeping) }
    }
}

extension DocumentStoreReading {
    /// The winning revision, or nil if the document is absent or its winner is deleted.
    public func get(id: String) throws -> DocumentRevision? {
        try connection.reading { db in
            guard let doc = try TreeRows.doc(db, id: id), !doc.deleted,
                  let row = try TreeRows.rev(db, revNum: doc.winnerRevNum)
            else { return nil }
            return try TreeRows.revision(row, id: id, sequence: doc.seq)
        }
    }

    /// The winning revisions of the live documents among `ids` (missing and deleted ones left
    /// out), read in one transaction: what `_all_docs` with `keys` answers, for callers that
    /// check thousands of IDs at once.
    public func documents(withIDs ids: [String]) throws -> [DocumentRevision] {
        guard !ids.isEmpty else { return [] }
        return try connection.reading { db in try DocumentStore.winnerRevisions(db, withIDs: ids) }
    }

    /// Any stored revision that still has its body, deleted ones included.
    public func get(id: String, rev: RevisionID) throws -> DocumentRevision? {
        try connection.reading { db in
            guard let doc = try TreeRows.doc(db, id: id),
                  let row = try TreeRows.rev(db, docNum: doc.docNum, rev: rev), row.body != nil
            else { return nil }
            return try TreeRows.revision(row, id: id, sequence: row.revNum == doc.winnerRevNum ? doc.seq : 0)
        }
    }

    /// Every leaf revision, deleted ones included, winner first. Leaves whose body is not
    /// held come with an empty body.
    public func leafRevisions(id: String) throws -> [DocumentRevision] {
        try connection.reading { db in
            guard let doc = try TreeRows.doc(db, id: id) else { return [] }
            return try TreeRows.leaves(db, docNum: doc.docNum).compactMap { leaf in
                guard let row = try TreeRows.rev(db, revNum: leaf.revNum) else { return nil }
                return try TreeRows.revision(row, id: id, sequence: row.revNum == doc.winnerRevNum ? doc.seq : 0)
            }
        }
    }

    /// Every leaf revision (deleted ones included) in the order of the revision tree, as
    /// CouchDB lists `open_revs=all`: from the roots, siblings by revision ID.
    public func leavesInTreeOrder(id: String) throws -> [RevisionID] {
        try connection.reading { db in
            guard let doc = try TreeRows.doc(db, id: id) else { return [] }
            return try TreeRows.leavesInTreeOrder(db, docNum: doc.docNum)
        }
    }

    /// The live leaves other than the winner.
    public func conflicts(id: String) throws -> [RevisionID] {
        try connection.reading { db in
            guard let doc = try TreeRows.doc(db, id: id) else { return [] }
            return try TreeRows.leaves(db, docNum: doc.docNum).dropFirst().filter { !$0.deleted }.map(\.rev)
        }
    }

    /// The newest revision of document `id` that a local edit made in this store file (by this
    /// or any other process, before or after a relaunch), as opposed to one that arrived by
    /// replication; `nil` when it has none. A conflict's leaf that is or descends from it is
    /// the version written here, the one a "local wins" policy keeps. Kept with the revisions
    /// themselves: nothing is held in memory, nothing is forgotten after many saves.
    public func latestLocalRevision(id: String) throws -> RevisionID? {
        try connection.reading { db in
            guard let doc = try TreeRows.doc(db, id: id),
                  let text = try String.fetchOne(db.cachedStatement(sql: """
                      SELECT rev FROM revs WHERE doc_num = ? AND local = 1 ORDER BY generation DESC, rev DESC LIMIT 1
                      """), arguments: [doc.docNum])
            else { return nil }
            return try TreeRows.parseRev(text)
        }
    }

    /// `rev` then its ancestors held here, newest first; `.notFound` if the store lacks `rev`.
    public func history(id: String, rev: RevisionID) throws -> [RevisionID] {
        try connection.reading { db in
            guard let doc = try TreeRows.doc(db, id: id),
                  let revNum = try TreeRows.exists(db, docNum: doc.docNum, rev: rev)
            else { throw DocumentStoreError.notFound(id: "\(id) \(rev)") }
            return try TreeRows.history(db, revNum: revNum)
        }
    }

    /// Number of live documents (winner not deleted), from the store's counter.
    public func documentCount() throws -> Int {
        try connection.reading { db in try StoreCounters.value(db, StoreCounters.live) ?? 0 }
    }

    /// Live documents in ID order (byte order), as `_all_docs` lists them.
    public func allDocuments(_ options: AllDocsOptions) throws -> [DocumentRevision] {
        var conditions = ["d.deleted = 0"]
        var arguments: [any DatabaseValueConvertible] = []
        let lowerOp = options.descending ? "<=" : ">="
        let upperOp = options.descending ? (options.inclusiveEnd ? ">=" : ">") : (options.inclusiveEnd ? "<=" : "<")
        // Keys are bound as their UTF-8 bytes and cast to text, so a key holding U+0000 (as
        // `"last\u0000"`, the key just after `"last"`) is compared whole; a bound string
        // would end at its first NUL.
        if let start = options.startKey { conditions.append("d.doc_id \(lowerOp) CAST(? AS TEXT)"); arguments.append(Data(start.utf8)) }
        if let end = options.endKey { conditions.append("d.doc_id \(upperOp) CAST(? AS TEXT)"); arguments.append(Data(end.utf8)) }
        let sql = """
            SELECT \(QueryPlan.columns) FROM docs d JOIN revs r ON r.rev_num = d.winner_rev_num
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY d.doc_id \(options.descending ? "DESC" : "ASC") LIMIT ? OFFSET ?
            """
        arguments.append(options.limit ?? -1)
        arguments.append(max(0, options.skip))
        return try connection.reading { db in try DocumentStore.winnerRevisions(db, sql: sql, arguments: StatementArguments(arguments)) }
    }

    /// How many live documents come before `key` in `_all_docs` order (after it, when
    /// `descending`): CouchDB's `offset` of a listing that starts there. Counted on the ID
    /// index, without reading a document.
    public func documentCount(before key: String, descending: Bool = false) throws -> Int {
        try connection.reading { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM docs WHERE deleted = 0 AND doc_id \(descending ? ">" : "<") CAST(? AS TEXT)",
                             arguments: [Data(key.utf8)]) ?? 0
        }
    }
}

extension DocumentStore {
    /// The winning revisions of the live documents among `ids`, in the database's order; with
    /// `keeping`, their bodies hold only those top-level members.
    static func winnerRevisions(_ db: Database, withIDs ids: [String], keeping: Set<String>? = nil) throws -> [DocumentRevision] {
        try winnerRevisions(db, sql: """
            SELECT \(keeping == nil ? QueryPlan.columns : LongBodyReader.partialColumns)
            FROM docs d JOIN revs r ON r.rev_num = d.winner_rev_num
            WHERE d.deleted = 0 AND d.doc_id IN (SELECT value FROM json_each(?))
            """, arguments: [TreeRows.idList(ids)], keeping: keeping)
    }

    /// The winners of a query selecting ``QueryPlan/columns``, read through a cursor: each row
    /// is read in place, where fetching the rows first would copy every body once more.
    static func winnerRevisions(_ db: Database, sql: String, arguments: StatementArguments,
                                keeping: Set<String>? = nil) throws -> [DocumentRevision] {
        var revisions: [DocumentRevision] = []
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() { revisions.append(try winnerRevision(row, keeping: keeping, in: db)) }
        return revisions
    }

    /// Builds a winner from a row of `doc_id, seq, rev_num, rev, parent, deleted, leaf, body, atts`.
    /// With `keeping`, the body holds only those top-level members; a row of a partial read
    /// (``LongBodyReader/partialColumns``) that left its long body out has them read from
    /// `db` by ``LongBodyReader``.
    static func winnerRevision(_ row: Row, keeping: Set<String>? = nil, in db: Database? = nil) throws -> DocumentRevision {
        let rev = RevRow(revNum: row[2], rev: try TreeRows.parseRev(row[3]), parent: row[4], deleted: row[5],
                         leaf: row[6], body: row[7], atts: row[8])
        if let keeping, let db, rev.body == nil, row.count > 9, (row[9] as Int64?) != nil {
            var revision = try TreeRows.revision(rev, id: row[0], sequence: row[1])
            revision.body = try LongBodyReader.members(keeping, ofRevision: rev.revNum, in: db)
            return revision
        }
        return try TreeRows.revision(rev, id: row[0], sequence: row[1], keeping: keeping)
    }
}
