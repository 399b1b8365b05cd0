import Foundation
import GRDB
import DocumentFormat

/// The write side of the store inside one SQLite transaction: local edits, replicated
/// insertions, winner bookkeeping, index maintenance and stemming. Every public write of
/// `DocumentStore` runs its operations through one of these, so a batch is all-or-nothing.
struct StoreTransaction {
    /// What a local (new_edits=true) edit does.
    enum Edit {
        case create
        case update(parent: RevisionID)
        case delete(parent: RevisionID)
    }

    let db: Database
    let revisionLimit: Int
    let indexes: [QueryIndex]
    let textIndexes: [TextIndex]
    private var lastSeq: Int64
    /// Changes to ``StoreCounters`` gathered during the transaction, added by ``flush()``.
    private var counterDeltas: [String: Int] = [:]
    private var nextDocNum: Int64?
    /// The full-text rows this transaction changes, written by ``flush()`` at its end
    /// (``PendingText``).
    private var pendingText: [PendingText.Key: PendingText] = [:]
    /// While an ``undoable(_:)`` write runs: each held full-text row it changed, as it was
    /// before (`nil`: not held).
    private var textUndo: [PendingText.Key: PendingText?]?

    /// A full-text row to write at the end of the transaction: the text the document's row
    /// ends up with (`nil`: none), and whether it had no row when the transaction first
    /// touched it. FTS5 writes its pending rows out at every savepoint, and each write of a
    /// batch runs in one (``undoable(_:)``): written as they came, the rows of a 1,000-object
    /// batch would be a thousand tiny FTS5 segments to merge. Held until the end, they are one.
    struct PendingText {
        struct Key: Hashable, Comparable {
            let index: Int
            let docNum: Int64
            static func < (lhs: Key, rhs: Key) -> Bool { (lhs.index, lhs.docNum) < (rhs.index, rhs.docNum) }
        }
        var text: String?
        let isNew: Bool
    }

    init(db: Database, revisionLimit: Int) throws {
        self.db = db
        self.revisionLimit = max(1, revisionLimit)
        self.lastSeq = try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(seq) FROM docs")) ?? 0
        self.indexes = try QueryIndex.all(db)
        self.textIndexes = try TextIndex.all(db)
    }

    // MARK: validation

    /// Refuses empty IDs and IDs starting with `_`, except CouchDB's design documents
    /// (`_design/<name>`, name non-empty), which replicate like any other document. Local
    /// documents have their own API.
    static func validateID(_ id: String) throws {
        guard !id.isEmpty, !id.hasPrefix("_") || (DesignDocuments.isDesign(id) && id.count > DesignDocuments.prefix.count) else {
            throw DocumentStoreError.invalidDocumentID(id)
        }
    }

    /// The canonical bytes of a body, refusing reserved fields (`_` members other than
    /// `ReplicatorStateFields`, which CouchDB keeps in bodies) and non-finite numbers.
    static func encodeBody(_ body: JSONObject, id: String) throws -> [UInt8] {
        if let reserved = body.keys.filter({ $0.hasPrefix("_") && !ReplicatorStateFields.names.contains($0) }).min() {
            throw DocumentStoreError.reservedField(id: id, field: reserved)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        guard CanonicalJSON.appendObject(body, to: &bytes) else {
            throw DocumentStoreError.invalidJSON("document '\(id)' holds a number that is not finite (NaN or infinity)")
        }
        return bytes
    }

    /// Runs `body` in a savepoint of this transaction: when it throws, its rows and this
    /// transaction's bookkeeping (sequence, counters, held full-text rows) are undone and the
    /// transaction goes on, so one refused write in a batch does not take the others with it.
    mutating func undoable<T>(_ body: (inout StoreTransaction) throws -> T) throws -> T {
        // The held full-text rows grow with the batch: rather than kept in a copy (which
        // each write would then copy whole), they are restored from a log of what this
        // write changed.
        var before = self
        before.pendingText = [:]
        textUndo = [:]
        var result: T?
        do {
            try db.inSavepoint {
                result = try body(&self)
                return .commit
            }
        } catch {
            var text = pendingText
            for (key, prior) in textUndo ?? [:] { text[key] = prior }
            self = before
            pendingText = text
            throw error
        }
        textUndo = nil
        return result!
    }

    /// Applies one write of a batch; `known` as for `apply`.
    mutating func perform(_ operation: DocumentStore.WriteOperation, known: DocRow?? = nil) throws -> DocumentRevision {
        switch operation {
        case .create(let id, let body, let attachments, let received):
            return try apply(.create, id: id, body: body, attachments: attachments, received: received, known: known)
        case .update(let id, let parent, let body, let attachments, let received):
            return try apply(.update(parent: parent), id: id, body: body, attachments: attachments, received: received)
        case .delete(let id, let parent, let received):
            return try apply(.delete(parent: parent), id: id, body: [:], attachments: [], received: received)
        }
    }

    // MARK: local edits

    /// Applies one local edit and returns the revision it made. `known` is the document's row
    /// when the caller already read it in this transaction (`.some(nil)`: it does not exist).
    /// The revision ID is hashed from `received` when given, else from the canonical body.
    mutating func apply(_ edit: Edit, id: String, body: JSONObject, attachments: [AttachmentChange],
                        received: RevisionBody? = nil, known: DocRow?? = nil) throws -> DocumentRevision {
        try Self.validateID(id)
        var deleted = false
        if case .delete = edit { deleted = true }
        let body = deleted ? [:] : body
        let bodyBytes = try Self.encodeBody(body, id: id)
        let doc = try known ?? TreeRows.doc(db, id: id)

        var parent: RevRow?
        var isRecreation = false
        switch edit {
        case .create:
            if let doc {
                isRecreation = true
                guard doc.deleted else { throw DocumentStoreError.conflict(id: id) }
                parent = try TreeRows.rev(db, revNum: doc.winnerRevNum)
            }
        case .update(let parentRev), .delete(let parentRev):
            guard let doc, let row = try TreeRows.rev(db, docNum: doc.docNum, rev: parentRev), row.leaf,
                  !(deleted && row.deleted)
            else { throw DocumentStoreError.conflict(id: id) }
            parent = row
        }

        let generation = try DocumentStoreError.reporting { try parent?.rev.childGeneration() ?? 1 }
        var infos = deleted ? [:] : AttachmentStorage.decodeMetadata(parent?.atts)
        // The digests CouchDB would hash for attachments of compressible types (of their
        // compressed bytes), kept beside the parent's metadata: read only when the parent has
        // such an attachment, so an edit of a document with pictures parses its metadata once.
        let keepsCompressible = infos.values.contains { CompressedAttachmentDigest.isCompressible($0.contentType) }
        var hashDigests = keepsCompressible ? AttachmentStorage.decodeHashDigests(parent?.atts) : [:]
        for change in attachments where !deleted {
            switch change {
            case .put(let name, let contentType, let data):
                guard !name.isEmpty, !name.hasPrefix("_") else {
                    throw DocumentStoreError.invalidJSON("attachment name '\(name)' of '\(id)' is empty or starts with '_'")
                }
                let digest = try AttachmentStorage.store(db, data: data)
                infos[name] = AttachmentInfo(contentType: contentType, length: data.count, digest: digest,
                                             revpos: generation)
                hashDigests[name] = CompressedAttachmentDigest.isCompressible(contentType)
                    ? CompressedAttachmentDigest.compressedDigest(of: data) : nil
            case .remove(let name):
                infos[name] = nil
                hashDigests[name] = nil
            }
        }
        // Attachments kept from a parent written before those digests were kept (or that came
        // by replication) get theirs from their bytes, once: the new revision keeps it.
        for (name, info) in infos where hashDigests[name] == nil && CompressedAttachmentDigest.isCompressible(info.contentType) {
            if let data = try AttachmentStorage.data(db, digest: info.digest) {
                hashDigests[name] = CompressedAttachmentDigest.compressedDigest(of: data)
            }
        }
        var hashedInfos = infos
        for (name, digest) in hashDigests { hashedInfos[name]?.digest = digest }

        let hashed = try received ?? DocumentStoreError.reporting { try RevisionBody(json: bodyBytes) }
        let rev = try DocumentStoreError.reporting {
            try RevisionHasher.revisionID(parent: parent?.rev, deleted: deleted, body: hashed, attachments: hashedInfos,
                                          recreation: isRecreation)
        }
        let docNum: Int64
        if let doc {
            docNum = doc.docNum
            if try TreeRows.exists(db, docNum: docNum, rev: rev) != nil { throw DocumentStoreError.conflict(id: id) }
        } else {
            docNum = try allocateDocNum()
        }
        if let parent { try markInterior(parent.revNum) }
        let revNum = try insertRev(docNum: docNum, rev: rev, parent: parent?.revNum, deleted: deleted, leaf: true,
                                   body: Data(bodyBytes),
                                   atts: AttachmentStorage.encodeMetadata(infos, order: RevisionHasher.attachmentOrder(of: infos, listed: hashed.attachmentOrder),
                                                                          hashDigests: hashDigests),
                                   local: true)
        let seq = try settle(docNum: docNum, id: id, existing: doc,
                             changed: LeafRow(revNum: revNum, rev: rev, deleted: deleted), changedBody: body)
        return DocumentRevision(id: id, rev: rev, deleted: deleted, body: body, attachments: infos, sequence: seq)
    }

    // MARK: replicated insertions

    /// Adds a revision made elsewhere, with its ancestry; a revision already held is a no-op.
    mutating func insert(_ revision: ReplicatedRevision) throws {
        let id = revision.id
        try Self.validateID(id)
        guard revision.rev.hasValidGeneration else {
            throw DocumentStoreError.invalidRevision(
                "revision \(revision.rev) of '\(id)' has a generation outside 1...\(RevisionID.maximumGeneration)")
        }
        guard revision.history.first == revision.rev else {
            throw DocumentStoreError.invalidRevision("the history of '\(id)' must start with \(revision.rev)")
        }
        for (offset, ancestor) in revision.history.enumerated()
        where ancestor.generation != revision.rev.generation - offset {
            throw DocumentStoreError.invalidRevision(
                "the history of '\(id)' has \(ancestor) where generation \(revision.rev.generation - offset) belongs")
        }
        let bodyBytes = try Self.encodeBody(revision.body, id: id)
        let infos = try resolveAttachments(revision)
        let doc = try TreeRows.doc(db, id: id)

        if let doc, let existing = try TreeRows.rev(db, docNum: doc.docNum, rev: revision.rev) {
            guard existing.body == nil else { return }
            try db.cachedStatement(sql: "UPDATE revs SET body = ?, atts = ?, deleted = ? WHERE rev_num = ?")
                .execute(arguments: [Data(bodyBytes), AttachmentStorage.encodeMetadata(infos), revision.deleted,
                                     existing.revNum])
            _ = try settle(docNum: doc.docNum, id: id, existing: doc,
                           changed: LeafRow(revNum: existing.revNum, rev: revision.rev, deleted: revision.deleted),
                           changedBody: revision.body)
            return
        }

        let history = Array(revision.history.prefix(revisionLimit))
        let docNum = try doc?.docNum ?? allocateDocNum()
        var parent: Int64?
        var oldestMissing = history.count - 1
        if doc != nil {
            for index in history.indices.dropFirst() {
                if let found = try TreeRows.exists(db, docNum: docNum, rev: history[index]) {
                    parent = found
                    oldestMissing = index - 1
                    break
                }
            }
        }
        if let parent { try markInterior(parent) }
        for index in stride(from: oldestMissing, to: 0, by: -1) {
            parent = try insertRev(docNum: docNum, rev: history[index], parent: parent, deleted: false, leaf: false,
                                   body: nil, atts: nil)
        }
        let revNum = try insertRev(docNum: docNum, rev: revision.rev, parent: parent, deleted: revision.deleted,
                                   leaf: true, body: Data(bodyBytes), atts: AttachmentStorage.encodeMetadata(infos))
        _ = try settle(docNum: docNum, id: id, existing: doc,
                       changed: LeafRow(revNum: revNum, rev: revision.rev, deleted: revision.deleted),
                       changedBody: revision.body)
    }

    private func resolveAttachments(_ revision: ReplicatedRevision) throws -> [String: AttachmentInfo] {
        var infos: [String: AttachmentInfo] = [:]
        for (name, attachment) in revision.attachments {
            switch attachment {
            case .data(let contentType, let data, let revpos):
                let digest = try AttachmentStorage.store(db, data: data)
                infos[name] = AttachmentInfo(contentType: contentType, length: data.count, digest: digest, revpos: revpos)
            case .stub(let info), .deferred(let info, _):
                // A deferred attachment is taken as a stub: its writer reads the bytes from
                // their source first when this store lacks them (`LocalDatabase`).
                if try AttachmentStorage.has(db, digest: info.digest) {
                    infos[name] = info
                } else if let held = try heldAttachment(id: revision.id, name: name, like: info) {
                    infos[name] = held
                } else {
                    throw DocumentStoreError.missingAttachment(id: revision.id, name: name, digest: info.digest)
                }
            }
        }
        return infos
    }

    /// The attachment `name` that a stored revision of document `id` holds with the stub's
    /// `revpos` and `length`: the same attachment under another digest. A CouchDB server
    /// digests the compressed bytes of the attachments it keeps gzip-compressed, while this
    /// store keeps (and digests) the bytes themselves, so a later stub from that server names
    /// a digest the store never saw for bytes it holds.
    private func heldAttachment(id: String, name: String, like stub: AttachmentInfo) throws -> AttachmentInfo? {
        guard let doc = try TreeRows.doc(db, id: id) else { return nil }
        let rows = try Data.fetchAll(db.cachedStatement(sql: "SELECT atts FROM revs WHERE doc_num = ? AND atts IS NOT NULL"),
                                      arguments: [doc.docNum])
        for row in rows {
            if let info = AttachmentStorage.decodeMetadata(row)[name], info.revpos == stub.revpos,
               info.length == stub.length || stub.length == 0, try AttachmentStorage.has(db, digest: info.digest) {
                return AttachmentInfo(contentType: stub.contentType, length: info.length, digest: info.digest, revpos: info.revpos)
            }
        }
        return nil
    }

    // MARK: conflicts

    /// Tombstones every live leaf other than `keeping`.
    mutating func resolveConflicts(id: String, keeping: RevisionID) throws {
        try Self.validateID(id)
        guard let doc = try TreeRows.doc(db, id: id) else { throw DocumentStoreError.notFound(id: id) }
        let leaves = try TreeRows.leaves(db, docNum: doc.docNum)
        guard leaves.contains(where: { $0.rev == keeping && !$0.deleted }) else {
            throw DocumentStoreError.conflict(id: id)
        }
        for leaf in leaves where !leaf.deleted && leaf.rev != keeping {
            _ = try apply(.delete(parent: leaf.rev), id: id, body: [:], attachments: [])
        }
    }

    // MARK: bookkeeping

    private mutating func allocateDocNum() throws -> Int64 {
        let next = try nextDocNum
            ?? (Int64.fetchOne(db.cachedStatement(sql: "SELECT coalesce(max(doc_num), 0) + 1 FROM docs")) ?? 1)
        nextDocNum = next + 1
        return next
    }

    /// Adds one revision row; `local` for a revision a local edit made (not one replicated in).
    private func insertRev(docNum: Int64, rev: RevisionID, parent: Int64?, deleted: Bool, leaf: Bool,
                           body: Data?, atts: Data?, local: Bool = false) throws -> Int64 {
        try db.cachedStatement(sql: """
            INSERT INTO revs(doc_num, rev, generation, parent, deleted, leaf, body, atts, local) VALUES (?,?,?,?,?,?,?,?,?)
            """).execute(arguments: [docNum, rev.description, rev.generation, parent, deleted, leaf, body, atts, local])
        return db.lastInsertedRowID
    }

    private func markInterior(_ revNum: Int64) throws {
        try db.cachedStatement(sql: "UPDATE revs SET leaf = 0 WHERE rev_num = ?").execute(arguments: [revNum])
    }

    /// After a revision was added (or filled in): choose the winner, take the next sequence,
    /// keep the indexes in step and stem the tree. Returns the document's new sequence.
    mutating func settle(docNum: Int64, id: String, existing: DocRow?, changed: LeafRow,
                                 changedBody: JSONObject) throws -> Int64 {
        let leaves = try existing == nil ? [changed] : TreeRows.leaves(db, docNum: docNum)
        let winner = leaves.first ?? changed
        let conflicted = leaves.lazy.filter { !$0.deleted }.count > 1
        lastSeq += 1
        if existing == nil {
            try db.cachedStatement(sql: """
                INSERT INTO docs(doc_num, doc_id, winner_rev_num, deleted, seq, conflicted) VALUES (?,?,?,?,?,?)
                """).execute(arguments: [docNum, id, winner.revNum, winner.deleted, lastSeq, conflicted])
        } else {
            try db.cachedStatement(sql: "UPDATE docs SET winner_rev_num = ?, deleted = ?, seq = ?, conflicted = ? WHERE doc_num = ?")
                .execute(arguments: [winner.revNum, winner.deleted, lastSeq, conflicted, docNum])
        }
        let wasLive = existing.map { !$0.deleted } ?? false
        if existing == nil { counterDeltas[StoreCounters.documents, default: 0] += 1 }
        if wasLive != !winner.deleted { counterDeltas[StoreCounters.live, default: 0] += winner.deleted ? -1 : 1 }
        // Design documents are never indexed: queries leave them out anyway.
        if (!indexes.isEmpty || !textIndexes.isEmpty) && !DesignDocuments.isDesign(id) {
            let isNew = existing == nil
            if winner.deleted {
                for index in indexes { try index.remove(db, docNum: docNum, deltas: &counterDeltas) }
                for position in textIndexes.indices { setText(nil, index: position, docNum: docNum, isNew: isNew) }
            } else {
                let body = try winner.revNum == changed.revNum
                    ? changedBody
                    : (TreeRows.rev(db, revNum: winner.revNum)?.body.map(JSONValue.parseObject) ?? [:])
                for index in indexes { try index.update(db, docNum: docNum, body: body, isNew: isNew, deltas: &counterDeltas) }
                for (position, index) in textIndexes.enumerated() {
                    setText(index.text(of: body), index: position, docNum: docNum, isNew: isNew)
                }
            }
        }
        if changed.rev.generation > revisionLimit { try stem(docNum: docNum) }
        return lastSeq
    }

    /// Writes what the transaction held back for its end: the full-text rows
    /// (``PendingText``), the counter changes gathered so far, and the ranks of the indexes
    /// whose rows changed in shape.
    mutating func flush() throws {
        // The full-text rows, in index and document order (FTS5 appends rowids in order).
        for key in pendingText.keys.sorted() {
            let pending = pendingText[key]!
            try textIndexes[key.index].write(db, docNum: key.docNum, text: pending.text, isNew: pending.isNew)
        }
        pendingText = [:]
        // The ranks of the indexes whose rows changed (their row counters moved or were touched).
        for index in indexes where counterDeltas[index.rowCounter] != nil { try index.ranks?.normalize(db) }
        try StoreCounters.add(db, counterDeltas)
        counterDeltas = [:]
    }

    /// Sets the row document `docNum` ends this transaction with in text index `index`
    /// (``PendingText``); `isNew` counts only the first time the document is touched. A new
    /// document without text has nothing to write and is not held: most new documents are
    /// outside most text indexes' filters.
    mutating func setText(_ text: String?, index: Int, docNum: Int64, isNew: Bool) {
        let key = PendingText.Key(index: index, docNum: docNum)
        if text == nil, isNew, pendingText[key] == nil { return }
        if textUndo != nil, textUndo!.index(forKey: key) == nil { textUndo![key] = .some(pendingText[key]) }
        if pendingText[key] != nil {
            pendingText[key]!.text = text
        } else {
            pendingText[key] = PendingText(text: text, isNew: isNew)
        }
    }

    /// Prunes the ancestors deeper than the revision limit below every leaf (CouchDB's stemming);
    /// revisions whose parent was pruned become roots.
    func stem(docNum: Int64) throws {
        var parentOf: [Int64: Int64] = [:]
        var all: [Int64] = []
        var leaves: [Int64] = []
        let cursor = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT rev_num, parent, leaf FROM revs WHERE doc_num = ?"), arguments: [docNum])
        while let row = try cursor.next() {
            let revNum: Int64 = row[0]
            all.append(revNum)
            if let parent: Int64 = row[1] { parentOf[revNum] = parent }
            if row[2] as Bool { leaves.append(revNum) }
        }
        guard all.count > revisionLimit else { return }
        var keep = Set<Int64>()
        for leaf in leaves {
            var current: Int64? = leaf
            var depth = 0
            while let revNum = current, depth < revisionLimit {
                keep.insert(revNum)
                current = parentOf[revNum]
                depth += 1
            }
        }
        let delete = try db.cachedStatement(sql: "DELETE FROM revs WHERE rev_num = ?")
        for revNum in all where !keep.contains(revNum) {
            try delete.execute(arguments: [revNum])
        }
        let orphan = try db.cachedStatement(sql: "UPDATE revs SET parent = NULL WHERE rev_num = ?")
        for revNum in keep {
            if let parent = parentOf[revNum], !keep.contains(parent) { try orphan.execute(arguments: [revNum]) }
        }
    }
}
