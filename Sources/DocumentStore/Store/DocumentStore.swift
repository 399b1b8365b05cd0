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
            let database = try DatabaseQueue()
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

    // MARK: plumbing

    /// Copies the write-ahead log into the database file this store has open and empties it
    /// (`PRAGMA wal_checkpoint(TRUNCATE)`), through the file descriptors the store holds, not
    /// by path. A process that finds its file deleted or replaced under it calls this before
    /// it goes: the log beside the path is then still the old file's, and a process opening
    /// the file now at the path would otherwise replay the old file's pages onto it.
    public func truncateWriteAheadLog() throws {
        try mapped { try database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") } }
    }

    /// Runs `body` with one reader connection held, so every read it makes through the
    /// ``StoreReader`` it is given is in one read of one snapshot: a query and its
    /// sub-queries see the same state and pay for one read transaction, not one each. The
    /// reader cannot write. What `body` throws is rethrown as it is.
    public func withSnapshot<T>(_ body: (StoreReader) throws -> T) throws -> T {
        let result: Result<T, any Error> = try mapped { try database.read { db in Result { try body(StoreReader(store: self, db: db)) } } }
        return try result.get()
    }

    /// Runs `body` with the writer connection held and one SQLite transaction open on it:
    /// every write made through the ``StoreWriter`` it is given commits when `body` returns,
    /// or none does when it throws (or the process dies), so work too large to hold in
    /// memory at once (an import of 180,000 objects saved a few thousand at a time) is still
    /// all or nothing. Reads through the writer see the uncommitted writes. Other writers
    /// wait until it ends; readers meanwhile see what was committed before it.
    public func inTransaction<T>(_ body: (StoreWriter) throws -> T) throws -> T {
        let result: Result<T, any Error> = try mapped {
            try database.writeWithoutTransaction { db in
                // A long transaction outgrows SQLite's default page cache (2 MB): its dirty
                // pages then spill into the WAL, the same page many times over, and are read
                // back (a large import writes several times its store's size). A larger cache
                // for the transaction's length avoids most of that.
                try db.execute(sql: "PRAGMA cache_size = -\(Self.transactionCacheKiB)")
                defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
                var outcome: Result<T, any Error> = .failure(CancellationError())
                try db.inTransaction(.immediate) {
                    outcome = Result { try body(StoreWriter(store: self, db: db)) }
                    if case .failure = outcome { return .rollback }
                    return .commit
                }
                return outcome
            }
        }
        return try result.get()
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
