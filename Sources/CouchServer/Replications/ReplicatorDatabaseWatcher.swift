import DocumentFormat
import DocumentStore
import Foundation
import Logging

/// Follows the `_replicator` database's changes feed and keeps the scheduler's document
/// jobs in line with its documents: from the first change when the server starts (so every
/// replication document is resumed, each from its checkpoint), then each change as it is
/// written. A deleted document stops its job; a deleted database stops them all.
struct ReplicatorDatabaseWatcher: Sendable {
    /// The database's name.
    static let databaseName = "_replicator"

    let registry: DatabaseRegistry
    let scheduler: ReplicationScheduler
    let logger: Logger

    /// Changes read per step.
    private static let pageSize = 200

    /// Runs until cancelled.
    func run() async {
        var since: Int64 = 0
        var followed: Database?
        while !Task.isCancelled {
            let found = try? await registry.existingDatabase(Self.databaseName)
            guard let database = found, !database.lifecycle.isDeleting else {
                if followed != nil {
                    scheduler.removeAllDocumentJobs()
                    followed = nil
                    since = 0
                }
                // No `_replicator` yet: the first request naming it creates it.
                do { try await Task.sleep(for: .milliseconds(500)) } catch { return }
                continue
            }
            if followed !== database {
                if followed != nil { scheduler.removeAllDocumentJobs() }
                followed = database
                since = 0
            }
            do {
                let start = since
                let (batch, bodies) = try await database.store.withReader { store -> (ChangesBatch, [String: JSONObject]) in
                    let batch = try store.changes(since: start, limit: Self.pageSize)
                    let live = batch.changes.filter { !$0.deleted }.map(\.id)
                    var bodies: [String: JSONObject] = [:]
                    for revision in try store.documents(withIDs: live) { bodies[revision.id] = revision.body }
                    return (batch, bodies)
                }
                for change in batch.changes where !change.id.hasPrefix("_design/") {
                    scheduler.documentChanged(change.id, body: bodies[change.id])
                }
                since = batch.lastSequence
                if batch.changes.count == Self.pageSize { continue }
            } catch {
                logger.warning("cannot read \(Self.databaseName): \(error)")
            }
            // Woken by every write to `_replicator`; the timeout bounds a wake missed between
            // the read above and this wait.
            await database.notifier.wait(timeout: .milliseconds(500))
        }
    }
}
