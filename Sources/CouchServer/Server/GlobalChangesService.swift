import DocumentFormat
import DocumentStore
import Logging
import ServiceLifecycle

/// Writes the database events of `DatabaseEventQueue` into the `_global_changes` database, as
/// CouchDB's `global_changes` application does: one document per event and database
/// (`created:recipes`, `updated:recipes`, `deleted:recipes`) with an empty body, given a new
/// revision each time the event happens again, so its changes feed, which `GET /_db_updates`
/// serves, lists each database's latest event of each kind once, in the order they happened.
/// The feed is a database like any other, so it survives a restart and its sequences resume.
///
/// Each wake writes every pending event in one transaction; events recorded meanwhile wait for
/// the next one. When `_global_changes` does not exist (CouchDB 3 creates it only when asked),
/// pending events are dropped, as CouchDB drops them. The service comes first in the server's
/// service group, so it stops last and writes the events of the last requests.
struct GlobalChangesService: Service {
    /// The database's name.
    static let databaseName = "_global_changes"

    /// The events to write.
    let queue: DatabaseEventQueue
    /// The databases, `_global_changes` among them once created.
    let registry: DatabaseRegistry
    /// Where a failed write is reported.
    let logger: Logger

    /// Writes the pending events each time the queue wakes it, until the server stops; then
    /// writes what is left.
    func run() async throws {
        for await _ in queue.wakes.cancelOnGracefulShutdown() {
            await flush()
        }
        await flush()
    }

    /// Writes the pending events, if `_global_changes` exists.
    func flush() async {
        let ids = queue.take()
        guard !ids.isEmpty else { return }
        do {
            guard let database = try await registry.existingDatabase(Self.databaseName) else { return }
            let written = try await database.lifecycle.withLeaseIfOpen {
                try await database.store.withWriter { store in
                    let operations = try ids.map { id -> DocumentStore.WriteOperation in
                        if let current = try store.get(id: id) {
                            return .update(id: id, parent: current.rev, body: [:], attachments: [])
                        }
                        return .create(id: id, body: [:], attachments: [])
                    }
                    return try store.write(operations).count
                }
            }
            if written != nil { database.didWrite() }
        } catch {
            logger.warning("cannot record \(ids.count) database events in \(Self.databaseName): \(error)")
        }
    }
}
