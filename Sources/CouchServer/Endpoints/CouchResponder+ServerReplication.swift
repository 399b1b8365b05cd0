import CouchProtocol
import DocumentFormat
import Foundation
import Hummingbird
import Replication
import HTTPSupport

/// Server-side replication, as CouchDB 3 serves it: `POST /_replicate`, `GET /_active_tasks`,
/// `GET /_scheduler/jobs` and `GET /_scheduler/docs`; all for the server administrator.
extension CouchResponder {
    /// The node name the replication endpoints report (CouchDB's Erlang node).
    var nodeName: String { "recipes@" + state.configuration.host }

    private var replicationContext: ReplicationJob.Context {
        ReplicationJob.Context(registry: state.registry, configuration: state.configuration, logger: logger)
    }

    /// 401 `unauthorized` unless the server administrator asks, or everyone may do
    /// everything (`AnonymousAccess.all`, CouchDB's "admin party").
    func requireServerAdmin(_ request: CouchRequest) throws {
        guard request.roles.contains("_admin") || state.configuration.anonymousAccess == .all else {
            throw CouchError.notServerAdmin
        }
    }

    /// `POST /_replicate`: a one-shot replication answered when it ends, a continuous one
    /// started in the background (`{"ok":true,"_local_id":ID}`), or, with `cancel`, the
    /// continuous one with the same definition or `replication_id` stopped (404 when none).
    func replicate(_ request: CouchRequest) async throws -> Response {
        try Self.allowOnly(request, [.post])
        try requireServerAdmin(request)
        let body = try await request.jsonObjectBody()
        let scheduler = state.replications
        if body["cancel"] == .bool(true) {
            let id: String
            if let given = body["replication_id"] {
                guard let text = given.stringValue else { throw CouchError.badRequest("replication_id must be a string") }
                id = text
            } else {
                id = try ReplicationDefinition(body).id
            }
            guard scheduler.cancelRequested(id) else { throw CouchError.missing }
            return CouchReply.json(200, ["ok": true, "_local_id": .string(id)])
        }
        let definition = try ReplicationDefinition(body)
        let job = ReplicationJob(definition: definition, user: request.user)
        if definition.continuous {
            if scheduler.addRequested(job) { scheduler.launch(job) }
            return CouchReply.json(200, ["ok": true, "_local_id": .string(definition.id)])
        }
        let registered = scheduler.addRequested(job)
        defer { if registered { scheduler.removeRequested(job) } }
        do {
            guard let summary = try await job.run(replicationContext, retrying: false) else { throw CouchError.missing }
            return CouchReply.json(200, Self.oneShotReply(summary, job.snapshot.total))
        } catch let error as CouchError {
            throw error
        } catch {
            // Answered here rather than thrown: the reason names the database (credentials
            // masked), which the generic 500 handling would replace.
            return CouchReply.error(Self.replicationFailure(ReplicationJob.replicationError(error)))
        }
    }

    /// CouchDB's reply to a one-shot replication: the session, the source sequence reached
    /// and one history entry with the run's counters.
    static func oneShotReply(_ summary: ReplicationSummary, _ counters: ReplicationProgress) -> JSONValue {
        let ended = Date()
        let started = ended.addingTimeInterval(-summary.duration)
        let end = summary.endSequence?.value ?? .int(0)
        let entry: JSONObject = [
            "session_id": .string(summary.sessionID),
            "start_time": .string(ReplicationJobStatus.rfc1123(started)),
            "end_time": .string(ReplicationJobStatus.rfc1123(ended)),
            "start_last_seq": summary.startSequence?.value ?? .int(0),
            "end_last_seq": end,
            "recorded_seq": end,
            "missing_checked": .int(Int64(counters.revisionsChecked)),
            "missing_found": .int(Int64(counters.missingRevisionsFound)),
            "docs_read": .int(Int64(counters.docsRead)),
            "docs_written": .int(Int64(counters.docsWritten)),
            "doc_write_failures": .int(Int64(counters.docsFailed)),
            "bulk_get_docs": .int(Int64(counters.docsRead)),
            "bulk_get_attempts": .int(Int64(counters.docsRead)),
        ]
        var reply: JSONObject = [
            "ok": true,
            "session_id": .string(summary.sessionID),
            "source_last_seq": end,
            "replication_id_version": 4,
            "history": [.object(entry)],
        ]
        if summary.changesProcessed == 0, summary.startSequence != nil { reply["no_changes"] = true }
        return .object(reply)
    }

    /// A failed one-shot replication as CouchDB reports it: 500 `db_not_found` ("could not
    /// open URL/") for a missing database, 500 `replication_auth_error` for refused
    /// credentials, 400 for a bad selector or URL, 500 `error` otherwise; never a password.
    static func replicationFailure(_ error: ReplicationError) -> CouchError {
        switch error {
        case .databaseNotFound(let url):
            let shown = CredentialMask.masked(url) + (url.contains("://") ? "/" : "")
            return CouchError(status: 500, error: "db_not_found", reason: "could not open \(shown)")
        case .unauthorized, .forbidden:
            return CouchError(status: 500, error: "replication_auth_error", reason: CredentialMask.masked(error.description))
        case .invalidSelector, .invalidURL:
            return CouchError.badRequest(CredentialMask.masked(error.description))
        default:
            return CouchError(status: 500, error: "error", reason: CredentialMask.masked(error.description))
        }
    }

    /// `GET /_active_tasks`: the running replications, with CouchDB's fields.
    func activeTasks(_ request: CouchRequest) throws -> Response {
        try Self.allow(request, [.get])
        try requireServerAdmin(request)
        let node = nodeName
        return CouchReply.json(200, .array(state.replications.liveJobs.compactMap { $0.activeTask(node: node) }))
    }

    /// `GET /_scheduler/jobs[/ID]` and `GET /_scheduler/docs[/_replicator[/DOCID]]`, with
    /// `limit` and `skip` on the lists.
    func scheduler(_ path: String, _ request: CouchRequest) throws -> Response {
        try Self.allow(request, [.get])
        try requireServerAdmin(request)
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let node = nodeName
        let scheduler = state.replications
        switch Array(segments.dropFirst()) {
        case ["jobs"]:
            let jobs = scheduler.liveJobs.map { $0.schedulerJob(node: node) }
            let (page, skip) = try Self.page(jobs, request)
            return CouchReply.json(200, ["total_rows": .int(Int64(jobs.count)), "offset": .int(Int64(skip)), "jobs": .array(page)])
        case let rest where rest.count == 2 && rest[0] == "jobs":
            guard let job = scheduler.liveJobs.first(where: { $0.id == rest[1] }) else {
                throw CouchError(status: 404, error: "not_found", reason: "unknown_job")
            }
            return CouchReply.json(200, job.schedulerJob(node: node))
        case ["docs"], ["docs", ReplicatorDatabaseWatcher.databaseName]:
            let docs = scheduler.documentJobs.map { $0.schedulerDocument(node: node) }
            let (page, skip) = try Self.page(docs, request)
            return CouchReply.json(200, ["total_rows": .int(Int64(docs.count)), "offset": .int(Int64(skip)), "docs": .array(page)])
        case let rest where rest.count >= 3 && rest[0] == "docs" && rest[1] == ReplicatorDatabaseWatcher.databaseName:
            guard let job = scheduler.documentJob(rest.dropFirst(2).joined(separator: "/")) else { throw CouchError.missing }
            return CouchReply.json(200, job.schedulerDocument(node: node))
        default:
            throw CouchError.missing
        }
    }

    /// The `skip` and `limit` query parameters applied to a list; the page and the skip.
    private static func page(_ rows: [JSONValue], _ request: CouchRequest) throws -> ([JSONValue], Int) {
        let skip = max(0, try request.query.int("skip") ?? 0)
        let limit = max(0, try request.query.int("limit") ?? rows.count)
        return (Array(rows.dropFirst(skip).prefix(limit)), skip)
    }
}
