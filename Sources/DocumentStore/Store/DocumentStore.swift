public import Foundation
import Glibc
import GRDB
import Synchronization
public import DocumentFormat

/// A local datastore of revisioned JSON documents in one SQLite file, with CouchDB's model:
/// revision trees, deterministic revision IDs, conflicts and a deterministic winner,
/// tombstones, attachments stored once by digest, local documents, a changes feed, and
/// Mango-style queries served by declared indexes.
///
/// The file is opened in WAL mode through a GRDB `DatabasePool`, so reads run on a pool of
/// readers and never wait for a write. A store opened for reading only (``Options/readOnly``)
/// has one connection, a GRDB `DatabaseQueue`: it has no writes to wait for, and each
/// connection reads and parses the whole schema when it opens. Every write (and every batch
/// of writes) is one SQLite transaction: it happens entirely or not at all. The type is
/// `Sendable`; any thread or task may call it, and writes are serialized by SQLite.
public final class DocumentStore: Sendable {
    /// Tunables of a store.
    public struct Options: Sendable {
        /// How many ancestors each leaf keeps (CouchDB's `revs_limit`); deeper ones are pruned.
        public var revisionLimit = 1000
        /// How long a write waits for another connection (another process, or another store
        /// object on the same file) to release the write lock before it fails with a
        /// transient ``DocumentStoreError/sqlite(_:)``, in seconds.
        public var busyTimeout: Double = 30
        /// Opens the file for reading only: every write fails, and the file must already be a
        /// store with the current schema (a missing file or an older schema is
        /// ``DocumentStoreError/storage(_:)``, since making or upgrading it would write). A
        /// program that only reads opens this way and writes nothing, not even SQLite's
        /// journal set-up.
        public var readOnly = false
        /// The defaults.
        public init() {}
    }

    /// A write of a batch given to `write(_:)`.
    ///
    /// `received`, when given, is the body as a client sent it (a `RevisionBody`), which the
    /// new revision's ID is hashed from as CouchDB would; without it the ID is hashed from
    /// `body` in canonical order.
    public enum WriteOperation: Sendable {
        /// Creates a document (or a new revision on top of a deleted one).
        case create(id: String, body: JSONObject, attachments: [AttachmentChange], received: RevisionBody? = nil)
        /// Updates the leaf revision `parent`.
        case update(id: String, parent: RevisionID, body: JSONObject, attachments: [AttachmentChange],
                    received: RevisionBody? = nil)
        /// Tombstones the leaf revision `parent`; `received` is the body a client sent with
        /// `_deleted`, which CouchDB hashes (the tombstone keeps no body).
        case delete(id: String, parent: RevisionID, received: RevisionBody? = nil)
    }

    /// The store's identity, a UUID made when the file was created and kept in it.
    public let storeID: String
    /// When the store file was created, in microseconds since 1970 (for a file made before
    /// this was recorded: when it was first opened by a version that records it). A file
    /// deleted and made again gets a new value, so it identifies this incarnation of a store.
    public let creationTime: Int64
    /// The path of the SQLite file (`:memory:` for an in-memory store).
    package let path: String

    /// The SQLite file the store lives in; `nil` for a store made by ``inMemory(options:)``.
    public var url: URL? { path == ":memory:" ? nil : URL(fileURLWithPath: path) }
    let options: Options
    /// The file's connections: a pool of readers and a writer, or one read-only connection.
    let database: any DatabaseWriter
    /// Whether a transaction opened by ``inTransaction(_:)`` is open on the writer connection.
    private let transactionOpen = Mutex(false)
    /// The declared query and text indexes as last read, with the database's schema version
    /// then: declaring or deleting an index creates or drops its table, which moves the
    /// version, so a query plans with the lists it would read without reading them each time.
    let declaredIndexes = Mutex<(schemaVersion: Int32, indexes: [QueryIndex], textIndexes: [TextIndex])?>(nil)
    /// The writer's page cache while ``inTransaction(_:)`` is open, in KiB.
    private static let transactionCacheKiB = 32768

    /// Opens the store in the file at `url`, creating the file and its schema if needed
    /// (unless ``Options/readOnly``).
    /// - Throws: ``DocumentStoreError`` when the file cannot be opened, is not a store, or
    ///   `url` is not a file URL.
    public convenience init(url: URL, options: Options = .init()) throws {
        guard url.isFileURL else {
            throw DocumentStoreError.storage("cannot open the store \(url.absoluteString): a store is a local file, give a file URL")
        }
        try self.init(path: url.path, options: options)
    }

    /// Opens the store at the file path `path` (the package's own callers, which hold paths).
    package convenience init(path: String, options: Options = .init()) throws {
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(options.busyTimeout)
            // ``inTransaction(_:)`` keeps one transaction open across several writer accesses.
            configuration.allowsUnsafeTransactions = true
            configuration.readonly = options.readOnly
            if options.readOnly {
                guard FileManager.default.fileExists(atPath: path) else {
                    throw DocumentStoreError.storage("cannot open the store \(path) for reading: there is no such file")
                }
            } else {
                try Self.createPrivateFile(path)
            }
            try Self.refuseRollbackJournalFile(path)
            try self.init(path: path, options: options, database: try Self.openDatabase(path: path, configuration: configuration))
        } catch let error as DocumentStoreError {
            throw error
        } catch let error as DatabaseError {
            throw DocumentStoreError.sqlite(SQLiteFailure(error, context: "cannot open store at \(path)"))
        } catch {
            throw DocumentStoreError.storage("cannot open store at \(path): \(error)")
        }
    }

    /// A store held in memory only: nothing touches the disk, and it is gone when the last
    /// reference to it is dropped. For an app's unit tests of fetches, indexes and sync, and
    /// for scratch work: it behaves as a store file does (schema, revisions, indexes, changes
    /// feed, transactions), on one SQLite connection, so a read waits for a write in progress.
    /// Its ``url`` is `nil`.
    /// - Throws: ``DocumentStoreError/storage(_:)`` for ``Options/readOnly`` (an empty store
    ///   that cannot be written is of no use).
    public static func inMemory(options: Options = .init()) throws -> DocumentStore {
        guard !options.readOnly else {
            throw DocumentStoreError.storage("an in-memory store cannot be opened for reading only: it starts empty")
        }
        do {
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let database = try DatabaseQueue(configuration: configuration)
            try StoreSchema.migrator().migrate(database)
            return try DocumentStore(path: ":memory:", options: options, database: database)
        } catch let error as DocumentStoreError {
            throw error
        } catch let error as DatabaseError {
            throw DocumentStoreError.sqlite(SQLiteFailure(error, context: "cannot make an in-memory store"))
        } catch {
            throw DocumentStoreError.storage("cannot make an in-memory store: \(error)")
        }
    }

    /// A store over connections already opened and migrated.
    private init(path: String, options: Options, database: any DatabaseWriter) throws {
        self.path = path
        self.options = options
        self.database = database
        (storeID, creationTime) = try database.read { db in
            (try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'store_id'") ?? "",
             try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'created_at'").flatMap { Int64($0) } ?? 0)
        }
    }

    /// Creates a missing store file readable and writable by its owner only (0600); SQLite
    /// gives the `-wal` and `-shm` files it makes beside it the same mode. An existing file
    /// is left as it is (`O_EXCL`), so a concurrent creator's file is never truncated.
    private static func createPrivateFile(_ path: String) throws {
        let descriptor = open(path, O_CREAT | O_EXCL | O_RDWR, 0o600)
        if descriptor >= 0 {
            try? FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).close()
        } else if errno != EEXIST {
            throw DocumentStoreError.storage("cannot create the store file \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Refuses an SQLite database that is not in WAL mode (the header's read and write
    /// versions, bytes 18 and 19, are 2 in WAL mode): every store is, so it is another
    /// program's, and opening it as a store would switch it to WAL and add tables to it.
    /// Files too short for a header (a new, empty one) and files that are not SQLite at all
    /// are left for SQLite to judge.
    private static func refuseRollbackJournalFile(_ path: String) throws {
        // Read with `pread` on a descriptor: `FileHandle`'s set-up costs each command's start
        // more than the read.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { Glibc.close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 20)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 20, 0) }
        guard count == 20, bytes.prefix(16).elementsEqual("SQLite format 3\0".utf8) else { return }
        if bytes[18] != 2 || bytes[19] != 2 {
            throw DocumentStoreError.foreignDatabase(path: path, reason: "it is an SQLite database of another program (not in WAL mode)")
        }
    }

    /// Opens the file's connections and brings the schema up to date, tolerating other
    /// processes that create the same new file at the same moment: switching a new file to WAL can
    /// find it locked, and two creators both see an empty schema, the later one failing once
    /// the first has committed. Both are retried briefly; only a schema that is still
    /// incomplete afterwards is an error.
    private static func openDatabase(path: String, configuration: Configuration) throws -> any DatabaseWriter {
        let migrator = StoreSchema.migrator()
        var attempt = 0
        while true {
            do {
                let database: any DatabaseWriter = configuration.readonly
                    ? try DatabaseQueue(path: path, configuration: configuration)
                    : try DatabasePool(path: path, configuration: configuration)
                // Every commit is on disk before it returns: what a command reports as saved
                // survives a power cut. GRDB's WAL set-up leaves the writer at NORMAL (commits
                // synced only at checkpoints), so FULL is set after it, on the writer.
                if !configuration.readonly {
                    try database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
                }
                // An up-to-date file is only read at open: no write transaction, no fsync.
                if try !database.read({ try migrator.hasCompletedMigrations($0) }) {
                    if let foreign = try database.read({ try StoreSchema.foreignTables($0) }) {
                        try? database.close()
                        throw DocumentStoreError.foreignDatabase(
                            path: path, reason: "it is an SQLite database of another program (its tables: \(foreign.prefix(5).joined(separator: ", ")))")
                    }
                    if configuration.readonly {
                        try? database.close()
                        throw DocumentStoreError.storage("cannot open the store \(path) for reading: its schema is older or missing, and bringing it up to date writes; open it for writing")
                    }
                    do {
                        try migrator.migrate(database)
                    } catch {
                        guard try database.read({ try migrator.hasCompletedMigrations($0) }) else { throw error }
                    }
                }
                return database
            } catch let error as DatabaseError
                // Another opener of a new file may be migrating it at the same moment: its
                // migration can lock the file (busy), or commit first, so this one's insert of
                // the same migration identifier fails its constraint. Opening again then finds
                // the migrations it completed.
                where attempt < 20 && [.SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_ERROR, .SQLITE_CONSTRAINT].contains(error.resultCode)
            {
                attempt += 1
                Thread.sleep(forTimeInterval: 0.005 * Double(attempt))
            }
        }
    }

    /// Closes the file; later calls fail with `.storage`.
    public func close() throws {
        try mapped { try database.close() }
    }

    // MARK: CRUD

    /// Creates a document; a nil `id` gets a random one. An existing live document is a
    /// `.conflict`; an existing deleted one gets a new revision on top of its tombstone.
    @discardableResult
    /// `received`: the body as a client sent it, to hash the revision ID from as CouchDB
    /// would (see ``WriteOperation``).
    public func create(id: String? = nil, body: JSONObject,
                       attachments: [AttachmentChange] = [], received: RevisionBody? = nil) throws -> DocumentRevision {
        let id = id ?? RandomIdentifier.compactHex()
        return try writing { try $0.apply(.create, id: id, body: body, attachments: attachments, received: received) }
    }

    /// Makes a child of the leaf revision `parent`; attachments not changed are kept.
    /// `received`: as for ``create(id:body:attachments:received:)``.
    @discardableResult
    public func update(id: String, parent: RevisionID, body: JSONObject,
                       attachments: [AttachmentChange] = [], received: RevisionBody? = nil) throws -> DocumentRevision {
        try writing { try $0.apply(.update(parent: parent), id: id, body: body, attachments: attachments, received: received) }
    }

    /// Tombstones the leaf revision `parent`; `received` is a body sent with the deletion,
    /// which the ID is hashed from (the tombstone keeps none).
    @discardableResult
    public func delete(id: String, parent: RevisionID, received: RevisionBody? = nil) throws -> DocumentRevision {
        try writing { try $0.apply(.delete(parent: parent), id: id, body: [:], attachments: [], received: received) }
    }

    /// Several writes in one transaction, all or nothing; returns the revisions made, in order.
    @discardableResult
    public func write(_ operations: [WriteOperation]) throws -> [DocumentRevision] {
        try writing { txn in
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
    public func writeEach(_ operations: [WriteOperation]) throws -> [Result<DocumentRevision, DocumentStoreError>] {
        try writing { txn in
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

    /// The winning revision, or nil if the document is absent or its winner is deleted.
    public func get(id: String) throws -> DocumentRevision? {
        try reading { db in
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
        return try reading { db in try Self.winnerRevisions(db, withIDs: ids) }
    }

    /// The winning revisions of the live documents among `ids`, in the database's order; with
    /// `keeping`, their bodies hold only those top-level members.
    static func winnerRevisions(_ db: Database, withIDs ids: [String], keeping: Set<String>? = nil) throws -> [DocumentRevision] {
        try winnerRevisions(db, sql: """
            SELECT \(keeping == nil ? QueryPlan.columns : LongBodyReader.partialColumns)
            FROM docs d JOIN revs r ON r.rev_num = d.winner_rev_num
            WHERE d.deleted = 0 AND d.doc_id IN (SELECT value FROM json_each(?))
            """, arguments: [TreeRows.idList(ids)], keeping: keeping)
    }

    /// Any stored revision that still has its body, deleted ones included.
    public func get(id: String, rev: RevisionID) throws -> DocumentRevision? {
        try reading { db in
            guard let doc = try TreeRows.doc(db, id: id),
                  let row = try TreeRows.rev(db, docNum: doc.docNum, rev: rev), row.body != nil
            else { return nil }
            return try TreeRows.revision(row, id: id, sequence: row.revNum == doc.winnerRevNum ? doc.seq : 0)
        }
    }

    /// Every leaf revision, deleted ones included, winner first. Leaves whose body is not
    /// held come with an empty body.
    public func leafRevisions(id: String) throws -> [DocumentRevision] {
        try reading { db in
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
        try reading { db in
            guard let doc = try TreeRows.doc(db, id: id) else { return [] }
            return try TreeRows.leavesInTreeOrder(db, docNum: doc.docNum)
        }
    }

    /// The live leaves other than the winner.
    public func conflicts(id: String) throws -> [RevisionID] {
        try reading { db in
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
        try reading { db in
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
        try reading { db in
            guard let doc = try TreeRows.doc(db, id: id),
                  let revNum = try TreeRows.exists(db, docNum: doc.docNum, rev: rev)
            else { throw DocumentStoreError.notFound(id: "\(id) \(rev)") }
            return try TreeRows.history(db, revNum: revNum)
        }
    }

    /// Tombstones every live leaf except `keeping`, in one transaction, so the document has no
    /// conflicts left; `.conflict` if `keeping` is not a live leaf.
    public func resolveConflicts(id: String, keeping: RevisionID) throws {
        try writing { try $0.resolveConflicts(id: id, keeping: keeping) }
    }

    /// Number of live documents (winner not deleted), from the store's counter.
    public func documentCount() throws -> Int {
        try reading { db in try StoreCounters.value(db, StoreCounters.live) ?? 0 }
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
        return try reading { db in try Self.winnerRevisions(db, sql: sql, arguments: StatementArguments(arguments)) }
    }

    /// How many live documents come before `key` in `_all_docs` order (after it, when
    /// `descending`): CouchDB's `offset` of a listing that starts there. Counted on the ID
    /// index, without reading a document.
    public func documentCount(before key: String, descending: Bool = false) throws -> Int {
        try reading { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM docs WHERE deleted = 0 AND doc_id \(descending ? ">" : "<") CAST(? AS TEXT)",
                             arguments: [Data(key.utf8)]) ?? 0
        }
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

    // MARK: plumbing

    /// Runs `body` in a write transaction, keeping SQLite failures as `.sqlite`. Inside
    /// ``inTransaction(_:)`` it is a savepoint of the open transaction.
    func writing<T>(_ body: (inout StoreTransaction) throws -> T) throws -> T {
        try writingDatabase { db in
            var txn = try StoreTransaction(db: db, revisionLimit: options.revisionLimit)
            let result = try body(&txn)
            try txn.flushCounters()
            return result
        }
    }

    /// Runs `body` on the writer connection in a transaction of its own, or, inside
    /// ``inTransaction(_:)``, in a savepoint of the open one (which it then joins: it commits
    /// or rolls back with it), keeping SQLite failures as `.sqlite`.
    func writingDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        try mapped {
            if let scope = AccessScope.current, scope.store == ObjectIdentifier(self) {
                guard scope.writes else {
                    throw DocumentStoreError.storage("a write was attempted inside a read of \(path); use withWriter(_:) for work that writes")
                }
                // Inside ``withWriter(_:)``: on the writer connection already, so the write is a
                // transaction of its own there, or a savepoint of one that is open.
                return try database.unsafeReentrantWrite { db in try Self.inTransactionOrSavepoint(db, body) }
            }
            if transactionOpen.withLock({ $0 }) {
                return try database.writeWithoutTransaction { db in try Self.inTransactionOrSavepoint(db, body) }
            }
            return try database.write { db in try body(db) }
        }
    }

    /// Copies the write-ahead log into the database file this store has open and empties it
    /// (`PRAGMA wal_checkpoint(TRUNCATE)`), through the file descriptors the store holds, not
    /// by path. A process that finds its file deleted or replaced under it calls this before
    /// it goes: the log beside the path is then still the old file's, and a process opening
    /// the file now at the path would otherwise replay the old file's pages onto it.
    public func truncateWriteAheadLog() throws {
        try mapped { try database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") } }
    }

    /// Runs `body` with every read it makes of this store in one read of one snapshot: a
    /// query and its sub-queries see the same state and pay for one read transaction, not one
    /// each. `body` must not write to this store (such a write fails). Inside another access
    /// (``withReader(_:)``, ``withWriter(_:)``, another snapshot) it joins that one; inside
    /// ``inTransaction(_:)`` each read runs on the writer, as there. What `body` throws is
    /// rethrown as it is.
    public func withSnapshot<T>(_ body: () throws -> T) throws -> T {
        if let scope = AccessScope.current, scope.store == ObjectIdentifier(self) { return try body() }
        if transactionOpen.withLock({ $0 }) { return try body() }
        let scope = AccessScope(store: ObjectIdentifier(self), writes: false)
        let result: Result<T, any Error> = try reading { _ in AccessScope.$current.withValue(scope) { Result { try body() } } }
        return try result.get()
    }

    /// Runs `body` on a reader snapshot, keeping SQLite failures as `.sqlite`. Inside
    /// ``inTransaction(_:)`` it reads on the writer connection, so it sees what the open
    /// transaction wrote.
    func reading<T>(_ body: (Database) throws -> T) throws -> T {
        try mapped {
            // Inside ``withReader(_:)`` or ``withWriter(_:)``: the connection (and snapshot) it holds.
            if let scope = AccessScope.current, scope.store == ObjectIdentifier(self) { return try database.unsafeReentrantRead(body) }
            if transactionOpen.withLock({ $0 }) { return try database.writeWithoutTransaction(body) }
            return try database.read(body)
        }
    }

    /// Runs `body` with every write of this store joined into one SQLite transaction: they
    /// all commit when `body` returns, or none does when it throws (or the process dies), so
    /// work too large to hold in memory at once (an import of 180,000 objects saved a few
    /// thousand at a time) is still all or nothing. Reads meanwhile see the uncommitted
    /// writes. Other writers in this process join the transaction too; other processes wait
    /// for it. Transactions do not nest.
    public func inTransaction<T>(_ body: () throws -> T) throws -> T {
        try mapped {
            if let scope = AccessScope.current, scope.store == ObjectIdentifier(self) {
                throw DocumentStoreError.storage("inTransaction cannot be used inside withReader(_:) or withWriter(_:) of \(path); call it outside them")
            }
            try transactionOpen.withLock { open in
                guard !open else { throw DocumentStoreError.storage("a transaction is already open on \(path); finish it first") }
                open = true
            }
            defer { transactionOpen.withLock { $0 = false } }
            // A long transaction outgrows SQLite's default page cache (2 MB): its dirty pages
            // then spill into the WAL, the same page many times over, and are read back (a
            // large import writes several times its store's size). A larger cache for the
            // transaction's length avoids most of that; the default comes back afterwards.
            try database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA cache_size = -\(Self.transactionCacheKiB)")
                try db.beginTransaction(.immediate)
            }
            defer { try? database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA cache_size = -2000") } }
            let result: T
            do {
                result = try body()
            } catch {
                try? database.writeWithoutTransaction { db in if db.isInsideTransaction { try db.rollback() } }
                throw error
            }
            do {
                try database.writeWithoutTransaction { try $0.commit() }
            } catch {
                try? database.writeWithoutTransaction { db in if db.isInsideTransaction { try db.rollback() } }
                throw error
            }
            return result
        }
    }

    /// Runs `body` on `db` in a transaction of its own, or in a savepoint of the transaction
    /// already open on it.
    static func inTransactionOrSavepoint<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        var result: T?
        if db.isInsideTransaction {
            try db.inSavepoint {
                result = try body(db)
                return .commit
            }
        } else {
            try db.inTransaction(.immediate) {
                result = try body(db)
                return .commit
            }
        }
        return result!
    }

    /// Runs `body`, keeping SQLite's failures as ``DocumentStoreError/sqlite(_:)`` (their
    /// codes intact) and anything else unexpected as ``DocumentStoreError/storage(_:)``.
    func mapped<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw Self.storeError(error)
        }
    }

    /// The datastore error for anything a store operation threw.
    static func storeError(_ error: any Error) -> DocumentStoreError {
        switch error {
        case let error as DocumentStoreError: return error
        case let error as DocumentFormatError: return DocumentStoreError(error)
        case let error as DatabaseError: return .sqlite(SQLiteFailure(error))
        default: return .storage("\(error)")
        }
    }
}
