import CouchProtocol
import DocumentFormat
import Foundation
import Logging
import Replication
import Synchronization
import HTTPSupport

/// One server-side replication: its definition, who started it (`POST /_replicate`) or
/// which `_replicator` document describes it, and its status. `run` copies with the
/// package's `Replicator`; a continuous job then waits for the source's next change and
/// runs again, and a failed attempt is retried after a delay that doubles each time
/// (state `crashing`), until `stop()` or the task's cancellation.
final class ReplicationJob: Sendable {
    /// The job's ID (`ReplicationDefinition.id`); `nil` for a document that defines none.
    let id: String?
    /// What it replicates; `nil` for a `_replicator` document that could not be read as one.
    let definition: ReplicationDefinition?
    /// The `_replicator` document describing it, for jobs started by one.
    let documentID: String?
    /// The `_replicator` document's body, to tell a changed definition from a rewrite.
    let documentBody: JSONObject?
    /// The user who started it with `POST /_replicate`.
    let user: String?
    /// CouchDB shows an Erlang process ID; this is the job's number in the same form.
    let pid: String
    private let status: Mutex<ReplicationJobStatus>
    private let stopSignal: AsyncStream<Void>
    private let stopContinuation: AsyncStream<Void>.Continuation

    private static let counter = Mutex(0)

    /// A job for `definition`.
    init(definition: ReplicationDefinition?, documentID: String? = nil, documentBody: JSONObject? = nil,
         user: String? = nil, invalidReason: String? = nil) {
        self.definition = definition
        self.id = definition?.id
        self.documentID = documentID
        self.documentBody = documentBody
        self.user = user
        let number = Self.counter.withLock { value -> Int in
            value += 1
            return value
        }
        pid = "<0.\(number).0>"
        var initial = ReplicationJobStatus()
        initial.record("added")
        if let invalidReason {
            initial.state = .failed
            initial.lastError = invalidReason
        }
        status = Mutex(initial)
        let (signal, continuation) = AsyncStream.makeStream(of: Void.self)
        stopSignal = signal
        stopContinuation = continuation
    }

    /// The job's status now.
    var snapshot: ReplicationJobStatus { status.withLock { $0 } }

    /// Marks the job over without running it: its `_replicator` document already records
    /// that it ended (`_replication_state` `completed` or `failed`), as when the server
    /// restarts, and CouchDB does not run such a document again.
    func markEnded(_ state: ReplicationJobState, reason: String?) {
        status.withLock {
            $0.state = state
            $0.lastError = state == .failed ? reason : nil
            $0.lastUpdated = Date()
        }
    }

    /// Stops the job: `run` ends with `ReplicationError.cancelled` at the engine's next
    /// step, whatever is checkpointed kept.
    func stop() { stopContinuation.finish() }

    /// What the job needs from the server to reach its databases.
    struct Context: Sendable {
        let registry: DatabaseRegistry
        let configuration: CouchServerConfiguration
        let logger: Logger
    }

    /// Runs the job until it ends. With `retrying` (continuous and `_replicator` jobs) a
    /// failure puts it in `crashing` and it tries again after the delay; a failure retrying
    /// cannot fix (credentials, a bad selector) ends it as `failed`. Without (a one-shot
    /// `POST /_replicate`), the first failure is thrown. Returns the last run's summary.
    @discardableResult
    func run(_ context: Context, retrying: Bool) async throws -> ReplicationSummary? {
        guard let definition else { return nil }
        return try await withThrowingTaskGroup(of: ReplicationSummary?.self) { group in
            group.addTask { try await self.work(definition, context, retrying: retrying) }
            group.addTask {
                for await _ in self.stopSignal {}
                throw ReplicationError.cancelled
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { return nil }
            return first
        }
    }

    private func work(_ definition: ReplicationDefinition, _ context: Context, retrying: Bool) async throws -> ReplicationSummary? {
        var delay = context.configuration.replicationRetryDelay
        // A continuous job runs again at each change; only a fresh start is an event.
        var starting = true
        while true {
            do {
                // The state stays `pending` or `crashing` until the engine has reached both
                // databases and read the checkpoints (`running` progress, below).
                status.withLock {
                    $0.waiting = false
                    if starting { $0.record("started") }
                }
                starting = false
                let source = try await peer(definition.source, context, creating: false)
                let target = try await peer(definition.target, context, creating: definition.createTarget)
                var options = ReplicationOptions()
                options.createTarget = definition.createTarget
                options.docIDs = definition.docIDs
                options.selector = definition.selector
                let replicator = Replicator(source: source, target: target, options: options, logger: context.logger) { progress in
                    self.status.withLock {
                        $0.current = progress
                        if progress.state == .running { $0.state = .running }
                        $0.lastUpdated = Date()
                    }
                }
                let summary = try await replicator.run()
                status.withLock {
                    $0.finishRun()
                    if let end = summary.endSequence { $0.checkpointedSequence = end.value }
                    $0.errorCount = 0
                    $0.lastError = nil
                    $0.state = definition.continuous ? .running : .completed
                    $0.waiting = definition.continuous
                    $0.lastUpdated = Date()
                }
                guard definition.continuous else { return summary }
                delay = context.configuration.replicationRetryDelay
                while !(try await source.waitForChanges(since: summary.endSequence, timeout: .seconds(60))) {}
            } catch {
                let failure = Self.replicationError(error)
                if failure == .cancelled || Task.isCancelled { throw ReplicationError.cancelled }
                let reason = CredentialMask.masked(failure.description)
                let fatal = !retrying || Self.isFatal(failure)
                status.withLock {
                    // What the failed run copied before it stopped still counts.
                    $0.finishRun()
                    $0.errorCount += 1
                    $0.lastError = reason
                    $0.waiting = false
                    $0.state = fatal ? .failed : .crashing
                    $0.record("crashed", reason: reason)
                }
                starting = true
                context.logger.warning("replication \(id ?? "") \(fatal ? "failed" : "crashed"): \(reason)")
                if !retrying { throw failure }
                if fatal { return nil }
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    throw ReplicationError.cancelled
                }
                delay = min(delay * 2, context.configuration.replicationMaxRetryDelay)
            }
        }
    }

    /// The peer for one side: a served database (created first with `create_target`), or a
    /// remote database over HTTP with the credentials of its URL or `Authorization` header.
    private func peer(_ endpoint: ReplicationEndpoint, _ context: Context, creating: Bool) async throws -> any ReplicationPeer {
        switch endpoint {
        case .local(let name):
            if creating {
                let exists = await context.registry.exists(name)
                if !exists { _ = try? await context.registry.create(name) }
            }
            guard let database = try await context.registry.existingDatabase(name), !database.lifecycle.isDeleting else {
                throw ReplicationError.databaseNotFound(url: name)
            }
            return ServedDatabasePeer(database: database)
        case .remote(let url, let user, let password):
            var options = CouchClientOptions()
            if let user { options.user = user }
            if let password { options.password = password }
            // The job retries on its own, with longer delays; a few quick retries are enough.
            options.maxRetries = 2
            options.trustedCertificates = context.configuration.trustedCertificates
            return try CouchDatabase(url: url, options: options, logger: context.logger)
        }
    }

    /// Any error of a run as a `ReplicationError`.
    static func replicationError(_ error: any Error) -> ReplicationError {
        switch error {
        case let error as ReplicationError: return error
        case is CancellationError: return .cancelled
        default: return .store(String(describing: error), cause: error)
        }
    }

    /// Failures a retry cannot fix.
    private static func isFatal(_ error: ReplicationError) -> Bool {
        switch error {
        case .unauthorized, .forbidden, .invalidURL, .invalidSelector: return true
        default: return false
        }
    }

    // MARK: What the endpoints show

    private var sourceText: JSONValue { definition.map { .string($0.source.display) } ?? .null }
    private var targetText: JSONValue { definition.map { .string($0.target.display) } ?? .null }
    private var database: JSONValue { documentID == nil ? .null : .string(ReplicatorDatabaseWatcher.databaseName) }
    private var docID: JSONValue { documentID.map { .string($0) } ?? .null }

    /// The `_active_tasks` entry of a running job; `nil` when it is not running.
    func activeTask(node: String) -> JSONValue? {
        let now = snapshot
        guard now.state == .running, let definition else { return nil }
        var task = now.statistics
        task["node"] = .string(node)
        task["pid"] = .string(pid)
        task["process_status"] = now.waiting ? "waiting" : "running"
        task["checkpoint_interval"] = .null
        task["continuous"] = .bool(definition.continuous)
        task["database"] = database
        task["doc_id"] = docID
        task["replication_id"] = id.map { .string($0) } ?? .null
        task["source"] = sourceText
        task["target"] = targetText
        task["source_seq"] = now.checkpointedSequence
        task["through_seq"] = now.checkpointedSequence
        task["started_on"] = .int(Int64(now.startTime.timeIntervalSince1970))
        task["updated_on"] = .int(Int64(now.lastUpdated.timeIntervalSince1970))
        task["type"] = "replication"
        task["user"] = user.map { .string($0) } ?? .null
        return .object(task)
    }

    /// The `_scheduler/jobs` entry.
    func schedulerJob(node: String) -> JSONValue {
        let now = snapshot
        var info: JSONValue = .null
        if now.state == .running {
            var statistics = now.statistics
            statistics["source_seq"] = now.checkpointedSequence
            statistics["through_seq"] = now.checkpointedSequence
            info = .object(statistics)
        }
        return [
            "database": database,
            "id": id.map { .string($0) } ?? .null,
            "pid": now.state == .running ? .string(pid) : .null,
            "source": sourceText,
            "target": targetText,
            "user": user.map { .string($0) } ?? .null,
            "doc_id": docID,
            "info": info,
            "history": .array(now.history),
            "node": .string(node),
            "start_time": .string(ReplicationJobStatus.iso8601(now.startTime)),
        ]
    }

    /// The `_scheduler/docs` entry of a `_replicator` document's job.
    func schedulerDocument(node: String) -> JSONValue {
        let now = snapshot
        let info: JSONValue
        switch now.state {
        case .crashing, .failed: info = ["error": .string(now.lastError ?? "")]
        case .pending: info = .null
        case .running, .completed: info = .object(now.statistics)
        }
        var entry: JSONObject = [
            "database": database,
            "doc_id": docID,
            "id": now.state.isFinal ? .null : (id.map { .string($0) } ?? .null),
            "source": sourceText,
            "target": targetText,
            "state": .string(now.state.rawValue),
            "info": info,
            "error_count": .int(Int64(now.errorCount)),
            "last_updated": .string(ReplicationJobStatus.iso8601(now.lastUpdated)),
            "start_time": .string(ReplicationJobStatus.iso8601(now.startTime)),
        ]
        if !now.state.isFinal {
            entry["node"] = .string(node)
            entry["source_proxy"] = .null
            entry["target_proxy"] = .null
        }
        return .object(entry)
    }
}
