package import DocumentStore
public import Foundation
import ObjectGraph
public import DocumentIncrementalStore

/// One recipes store file opened for use: the datastore, the incremental store over it,
/// and the object graph (``DocumentIncrementalStore/ObjectContainer``) on top.
///
/// Everything the program does to a store goes through this value: the object graph for
/// recipes, the datastore for what sits below the graph (replication, local documents,
/// tombstones).
public final class RecipesStore: Sendable {
    /// The store file.
    public let url: URL
    /// The revisioned document datastore in the file.
    package let documentStore: DocumentStore
    /// The incremental store over the datastore that the object graph is opened on, kept
    /// typed so sync can resolve conflicts and refresh without asking the container.
    package let incrementalStore: DocumentIncrementalStore
    /// The object graph over it.
    public let container: ObjectContainer

    /// Opens (creating it and its folder if needed) the store file at `url`.
    /// - Parameters:
    ///   - url: the store file.
    ///   - lockWait: how long, in seconds, a write waits for another process's write (a
    ///     running import or sync) to finish before it fails with a
    ///     ``RecipesError/store(_:cause:)`` whose cause is transient
    ///     (``RecipesError/isStoreLocked``); a program a person waits on keeps it short.
    ///   - readOnly: open an existing, up-to-date store for reading only: nothing in the file
    ///     or its folder is created or changed, and every write fails. Opening fails where a
    ///     write would be needed first (no file yet, an older schema, a model change), so a
    ///     program that only reads tries this and opens for writing when it fails.
    public init(url: URL, lockWait: Double = 30, readOnly: Bool = false) throws(RecipesError) {
        self.url = url
        do {
            // A folder made here holds only stores, so only their owner may enter it.
            if !readOnly {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            }
        } catch {
            throw .store("cannot create the folder \(url.deletingLastPathComponent().path): \(error.localizedDescription); check its permissions or choose another --store", cause: error)
        }
        do {
            var options = DocumentStore.Options()
            options.busyTimeout = max(0, lockWait)
            options.readOnly = readOnly
            documentStore = try DocumentStore(url: url, options: options)
        } catch let error as DocumentStoreError {
            // The datastore's sentence names the cause and the fix.
            if case .foreignDatabase = error { throw .store(error.description, cause: error) }
            throw .store("cannot open the store \(url.path): \(error)", cause: error)
        } catch {
            throw .store("cannot open the store \(url.path): \(error); check the path or choose another --store", cause: error)
        }
        let model = try RecipesModel.current()
        do {
            container = try ObjectContainer(model: model, url: url, documentStore: documentStore)
        } catch {
            throw .store("cannot open the store: \(error)", cause: error)
        }
        incrementalStore = container.incrementalStore
    }

    /// Gives the store the password for encrypted attributes (`Recipe.notes`); a password
    /// that does not match the store's key check is refused before any data is read.
    /// - Throws: ``RecipesError/store(_:cause:)`` whose cause is
    ///   `EncryptedAttributeError.wrongPassword` for a wrong password.
    public func unlock(password: String) throws(RecipesError) {
        do { try incrementalStore.unlock(password: password) } catch {
            throw .store("\(error)", cause: error)
        }
    }

    /// Whether ``unlock(password:)`` accepted a password.
    public var isUnlocked: Bool { incrementalStore.isUnlocked }

    /// Re-encrypts every encrypted value from `oldPassword` to `newPassword` in one write
    /// (all or nothing); returns how many values changed.
    /// - Throws: ``RecipesError/store(_:cause:)`` (cause `EncryptedAttributeError` for a wrong
    ///   password or an undecryptable value, when nothing is written).
    @discardableResult
    public func rekey(from oldPassword: String, to newPassword: String) throws(RecipesError) -> Int {
        do { return try incrementalStore.rekey(from: oldPassword, to: newPassword) } catch {
            throw .store("\(error)", cause: error)
        }
    }

    /// Lets go of a store file that was deleted or replaced while open
    /// (``StoreFileIdentity/Change``): empties the write-ahead log beside the path, which is
    /// still the old file's, so the file now at the path does not get the old file's pages
    /// replayed onto it. Best effort: a failure is left to SQLite's own recovery.
    public func releaseReplacedFile() {
        try? documentStore.truncateWriteAheadLog()
    }

    /// Whether a store file exists at `url` (without creating one).
    public static func exists(at url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path)
    }

    /// A seeder for this store.
    public var seeder: SampleSeeder { SampleSeeder(container: container, documentStore: documentStore) }

    /// Live documents in the file (recipes, their parts, and the store's model document),
    /// from the datastore's counter.
    /// - Throws: ``RecipesError/store(_:cause:)`` when the file cannot be read.
    public func documentCount() throws(RecipesError) -> Int {
        do { return try documentStore.documentCount() } catch {
            throw .store("cannot count the documents of \(url.path): \(error); check the file", cause: error)
        }
    }
}
