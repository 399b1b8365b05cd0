import CouchProtocol
import DocumentStore
import Foundation

/// The databases of a data directory: one DocumentStore file per database, opened on first
/// use and kept open until the server stops or the database is deleted.
actor DatabaseRegistry {
    private let directory: URL
    private let storeOptions: DocumentStore.Options
    private var open: [String: Database] = [:]
    /// Where creations, deletions and writes are recorded for `_global_changes`, if anywhere.
    private let events: DatabaseEventQueue?

    init(directory: URL, storeOptions: DocumentStore.Options = .init(), events: DatabaseEventQueue? = nil) {
        self.directory = directory
        self.storeOptions = storeOptions
        self.events = events
    }

    private func path(of name: DatabaseName) -> String {
        directory.appendingPathComponent(name.fileName).path
    }

    /// The existing database called `name`; 404 `not_found` when there is none (or the name is
    /// not a valid database name, which no database can have).
    ///
    /// `_users` and `_replicator` always exist, as on a set-up CouchDB: they are created on
    /// first use, so a data directory that never had an account has no `_users` file.
    /// `_global_changes` exists only once created, as on a single-node CouchDB 3.
    func database(_ name: String) throws -> Database {
        if let database = open[name] {
            if database.lifecycle.isDeleting { throw CouchError.databaseMissing }
            return database
        }
        if DatabaseName.createdOnFirstUse.contains(name), !exists(name) { return try create(name) }
        guard let valid = try? DatabaseName(validating: name),
              FileManager.default.fileExists(atPath: path(of: valid))
        else { throw CouchError.databaseMissing }
        return try openStore(valid)
    }

    /// The database called `name` when it exists, without creating a system database that
    /// was never used (the `_replicator` watcher asks this, so a server that never had a
    /// replication document lists no `_replicator`); `nil` otherwise.
    func existingDatabase(_ name: String) throws -> Database? {
        guard exists(name) else { return nil }
        return try? database(name)
    }

    /// Whether a database called `name` exists.
    func exists(_ name: String) -> Bool {
        if open[name] != nil { return true }
        guard let valid = try? DatabaseName(validating: name) else { return false }
        return FileManager.default.fileExists(atPath: path(of: valid))
    }

    /// Creates the database; 400 for an invalid name, 412 `file_exists` if it already exists.
    func create(_ name: String) throws -> Database {
        let valid = try DatabaseName(validating: name)
        if open[name] != nil || FileManager.default.fileExists(atPath: path(of: valid)) {
            throw CouchError.databaseExists
        }
        // The data directory holds every database: only its owner may list or open them.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let database = try openStore(valid)
        if name == GlobalChangesService.databaseName {
            // Events of the time it did not exist are not recorded in it, even those not yet
            // written when it is created.
            _ = events?.take()
        }
        events?.record(.created, of: name)
        return database
    }

    /// Closes and removes the database's files; 404 when there is no such database (or
    /// another delete of it has started). New requests for it get 404 at once; open feeds
    /// end, and requests already inside finish, before the store closes.
    func delete(_ name: String) async throws {
        let database = try database(name)
        guard database.lifecycle.beginDeleting() else { throw CouchError.databaseMissing }
        await database.notifier.notify()
        await database.lifecycle.waitUntilDrained()
        if open[name] === database { open[name] = nil }
        try? database.store.close()
        let base = path(of: database.name)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: base + suffix) {
            try FileManager.default.removeItem(atPath: base + suffix)
        }
        events?.record(.deleted, of: name)
    }

    /// Every open database (to wake their feeds when the server stops).
    func openDatabases() -> [Database] {
        Array(open.values)
    }

    /// Names of all databases, sorted.
    func names() throws -> [String] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return files.compactMap { DatabaseName(fileName: $0)?.name }.sorted()
    }

    /// Closes every open store.
    func closeAll() {
        for database in open.values { try? database.store.close() }
        open.removeAll()
    }

    private func openStore(_ name: DatabaseName) throws -> Database {
        let store: DocumentStore
        do {
            store = try DocumentStore(path: path(of: name), options: storeOptions)
        } catch let error as DocumentStoreError {
            throw CouchError(error)
        }
        let database = Database(name: name, store: store, events: events)
        open[name.name] = database
        return database
    }
}
