import CouchProtocol
import DocumentFormat
import Foundation
import Synchronization

/// The server's replication jobs: those `POST /_replicate` started (kept while they run)
/// and those of `_replicator` documents (kept while the document exists, finished or not).
/// Jobs that run in the background are handed to `ReplicationService`, which runs each as
/// a child task and cancels them all when the server stops.
final class ReplicationScheduler: Sendable {
    private struct Jobs: Sendable {
        /// `POST /_replicate` jobs by ID.
        var requested: [String: ReplicationJob] = [:]
        /// `_replicator` document jobs by document ID.
        var documents: [String: ReplicationJob] = [:]
    }

    private let jobs = Mutex(Jobs())
    /// Jobs to run in the background, in the order they were added.
    let launches: AsyncStream<ReplicationJob>
    private let launcher: AsyncStream<ReplicationJob>.Continuation

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: ReplicationJob.self)
        launches = stream
        launcher = continuation
    }

    /// Registers a `POST /_replicate` job; `false` when one with its ID is already there
    /// (the caller then reports that one, as CouchDB does for a repeated continuous request).
    func addRequested(_ job: ReplicationJob) -> Bool {
        guard let id = job.id else { return false }
        return jobs.withLock { jobs in
            guard jobs.requested[id] == nil else { return false }
            jobs.requested[id] = job
            return true
        }
    }

    /// Runs a registered job in the background.
    func launch(_ job: ReplicationJob) {
        launcher.yield(job)
    }

    /// Forgets a `POST /_replicate` job that ended (if it is still the one registered).
    func removeRequested(_ job: ReplicationJob) {
        guard let id = job.id else { return }
        jobs.withLock { jobs in
            if jobs.requested[id] === job { jobs.requested[id] = nil }
        }
    }

    /// Stops and forgets the `POST /_replicate` job `id`; `false` when there is none.
    func cancelRequested(_ id: String) -> Bool {
        guard let job = jobs.withLock({ $0.requested.removeValue(forKey: id) }) else { return false }
        job.stop()
        return true
    }

    /// Brings the jobs in line with a `_replicator` document as it is now (`nil`: deleted):
    /// a new or changed definition (re)starts its job, a deleted document stops it, and a
    /// rewrite that changes nothing but the `_replication_*` fields (as the server's own
    /// record of a job's end does) leaves it as it is. A document that records its job
    /// ended (`completed` or `failed`) is not run again.
    func documentChanged(_ documentID: String, body: JSONObject?) {
        let (stopped, started) = jobs.withLock { jobs -> (ReplicationJob?, ReplicationJob?) in
            let existing = jobs.documents[documentID]
            guard let body else {
                jobs.documents[documentID] = nil
                return (existing, nil)
            }
            if let existing, let previous = existing.documentBody,
               ReplicatorDocumentState.definitionFields(previous) == ReplicatorDocumentState.definitionFields(body) {
                return (nil, nil)
            }
            let job: ReplicationJob
            do {
                job = ReplicationJob(definition: try ReplicationDefinition(body), documentID: documentID, documentBody: body)
            } catch {
                let reason = (error as? CouchError)?.reason ?? String(describing: error)
                job = ReplicationJob(definition: nil, documentID: documentID, documentBody: body, invalidReason: reason)
            }
            jobs.documents[documentID] = job
            if job.definition != nil, let ended = ReplicatorDocumentState.recordedEnd(body) {
                job.markEnded(ended.state, reason: ended.reason)
                return (existing, nil)
            }
            return (existing, job.definition == nil ? nil : job)
        }
        stopped?.stop()
        if let started { launch(started) }
    }

    /// Stops and forgets every `_replicator` job (the database was deleted).
    func removeAllDocumentJobs() {
        let all = jobs.withLock { jobs -> [ReplicationJob] in
            defer { jobs.documents.removeAll() }
            return Array(jobs.documents.values)
        }
        for job in all { job.stop() }
    }

    /// The `_replicator` job of `documentID`.
    func documentJob(_ documentID: String) -> ReplicationJob? {
        jobs.withLock { $0.documents[documentID] }
    }

    /// Every `_replicator` job, by document ID.
    var documentJobs: [ReplicationJob] {
        jobs.withLock { jobs in jobs.documents.keys.sorted().compactMap { jobs.documents[$0] } }
    }

    /// Every job not over yet: `POST /_replicate` ones, then `_replicator` ones.
    var liveJobs: [ReplicationJob] {
        let (requested, documents) = jobs.withLock { jobs in
            (jobs.requested.keys.sorted().compactMap { jobs.requested[$0] },
             jobs.documents.keys.sorted().compactMap { jobs.documents[$0] })
        }
        return (requested + documents).filter { !$0.snapshot.state.isFinal }
    }

    /// Ends `launches` (the server is stopping).
    func finish() {
        launcher.finish()
    }
}
