import DocumentStore
import Foundation
import NIOConcurrencyHelpers

/// One served database: its store file, the notifier its longpoll readers wait on, and a
/// cached count of deleted documents for the database-info reply.
final class Database: Sendable {
    /// The database's name.
    let name: DatabaseName
    /// The datastore holding its documents.
    let store: DocumentStore
    /// Wakes longpoll `_changes` readers after writes.
    let notifier = ChangeNotifier()
    private let deletedCountCache = NIOLockedValueBox<(sequence: Int64, count: Int)?>(nil)

    init(name: DatabaseName, store: DocumentStore) {
        self.name = name
        self.store = store
    }

    /// Documents whose winning revision is a tombstone (`doc_del_count`), recounted from the
    /// changes feed only when the database changed since the last count.
    func deletedDocumentCount() throws -> Int {
        let sequence = try store.lastSequence
        if let cached = deletedCountCache.withLockedValue({ $0 }), cached.sequence == sequence {
            return cached.count
        }
        var count = 0
        var since: Int64 = 0
        var last: Int64 = 0
        while true {
            let batch = try store.changes(since: since, limit: 5000)
            if batch.changes.isEmpty { break }
            count += batch.changes.reduce(0) { $0 + ($1.deleted ? 1 : 0) }
            since = batch.lastSequence
            last = batch.lastSequence
        }
        let result = (sequence: max(last, sequence), count: count)
        deletedCountCache.withLockedValue { $0 = result }
        return count
    }

    /// Signals longpoll readers after a write.
    func didWrite() {
        let notifier = self.notifier
        Task { await notifier.notify() }
    }
}
