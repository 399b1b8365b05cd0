import Logging
import CouchProtocol
import DocumentFormat
import DocumentStore
import Foundation

/// How a one-shot `_replicator` document records its job's end, as CouchDB 3 does: a new
/// revision of the document with `_replication_state` (`completed` or `failed`),
/// `_replication_state_time`, and `_replication_stats` (completed) or
/// `_replication_state_reason` (failed). The `_replicator` changes feed shows that revision;
/// the scheduler ignores the `_replication_*` fields when it compares definitions, so the
/// write does not start the job again.
enum ReplicatorDocumentState {
    /// The document's body without the fields the replicator writes: what defines its job.
    static func definitionFields(_ body: JSONObject) -> JSONObject {
        body.filter { !ReplicatorStateFields.names.contains($0.key) }
    }

    /// The end a document records (`_replication_state` `completed` or `failed`), if any.
    static func recordedEnd(_ body: JSONObject) -> (state: ReplicationJobState, reason: String?)? {
        switch body["_replication_state"] {
        case .string("completed"): return (.completed, nil)
        case .string("failed"):
            if case .string(let reason) = body["_replication_state_reason"] { return (.failed, reason) }
            return (.failed, nil)
        default: return nil
        }
    }

    /// `body` with the end of a job in `status` recorded; `nil` when the job is not over.
    static func recording(_ status: ReplicationJobStatus, in body: JSONObject, at time: Date) -> JSONObject? {
        var updated = body
        switch status.state {
        case .completed:
            var stats = status.statistics
            stats["start_time"] = .string(ReplicationJobStatus.iso8601(status.startTime))
            updated["_replication_state"] = "completed"
            updated["_replication_stats"] = .object(stats)
            updated.removeValue(forKey: "_replication_state_reason")
        case .failed:
            updated["_replication_state"] = "failed"
            updated["_replication_state_reason"] = .string(status.lastError ?? "unknown error")
            updated.removeValue(forKey: "_replication_stats")
        case .pending, .running, .crashing:
            return nil
        }
        updated["_replication_state_time"] = .string(ReplicationJobStatus.iso8601(time))
        return updated
    }

    /// Writes the end of `job` into its `_replicator` document as a new revision, when the job
    /// is over and still the one the scheduler holds for a document whose definition has not
    /// changed since (a job stopped or replaced by an edit records nothing).
    static func recordEnd(of job: ReplicationJob, scheduler: ReplicationScheduler, context: ReplicationJob.Context) async {
        guard let documentID = job.documentID, let definition = job.documentBody,
              scheduler.documentJob(documentID) === job else { return }
        let status = job.snapshot
        guard status.state.isFinal else { return }
        do {
            guard let database = try await context.registry.existingDatabase(ReplicatorDatabaseWatcher.databaseName),
                  !database.lifecycle.isDeleting else { return }
            let wrote = try await database.store.withWriter { store throws -> Bool in
                guard let current = try store.get(id: documentID),
                      definitionFields(current.body) == definitionFields(definition),
                      let updated = recording(status, in: current.body, at: Date()) else { return false }
                _ = try store.update(id: documentID, parent: current.rev, body: updated)
                return true
            }
            if wrote { database.didWrite() }
        } catch {
            context.logger.warning("cannot record the end of replication \(documentID) in \(ReplicatorDatabaseWatcher.databaseName): \(error)")
        }
    }
}
