import DocumentStore
import Foundation
import Synchronization

/// One served database: its store file, the notifier its longpoll readers wait on, and the
/// set of deleted documents behind the database-info reply's `doc_del_count`.
final class Database: Sendable {
    /// The database's name.
    let name: DatabaseName
    /// The datastore holding its documents.
    let store: DocumentStore
    /// `instance_start_time` in the database's info: when its file was created, in
    /// microseconds (CouchDB 3 gives the creation time in seconds), so a database deleted and
    /// created again within the same second still reads as a different database.
    var instanceStartTime: String { String(store.creationTime) }
    /// Wakes longpoll `_changes` readers after writes.
    let notifier = ChangeNotifier()
    /// The requests using the database, and whether it is being deleted.
    let lifecycle = DatabaseLifecycle()
    /// Where its writes are recorded for `_global_changes`, if anywhere.
    private let events: DatabaseEventQueue?
    /// IDs whose winner is a tombstone, as of `sequence`; brought up to date from the changes
    /// feed, so each database-info request reads only what changed since the last one.
    private let tombstones = Mutex<(sequence: Int64, ids: Set<String>)>((0, []))

    init(name: DatabaseName, store: DocumentStore, events: DatabaseEventQueue? = nil) {
        self.name = name
        self.store = store
        self.events = events
    }

    /// Documents whose winning revision is a tombstone (`doc_del_count`), read through
    /// `store` (this database's store, or a connection of it held by the caller).
    func deletedDocumentCount(in store: some DocumentStoreReading) throws -> Int {
        var (since, ids) = tombstones.withLock { $0 }
        since = try store.forEachChange(since: since, batch: 5000) { change in
            if change.deleted { ids.insert(change.id) } else { ids.remove(change.id) }
        }
        let result = (sequence: since, ids: ids)
        tombstones.withLock { current in
            if result.sequence > current.sequence { current = result }
        }
        return ids.count
    }

    /// Signals longpoll readers after a write, and records it for `_global_changes`.
    func didWrite() {
        events?.record(.updated, of: name.name)
        let notifier = self.notifier
        Task { await notifier.notify() }
    }
}
