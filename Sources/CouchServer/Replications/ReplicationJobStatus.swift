import DocumentFormat
import Foundation
import Replication

/// What a server-side replication job has done and where it stands: its state, its
/// counters over every run since it started, its last error (credentials masked) and its
/// event history, as `_active_tasks` and `_scheduler/*` show them.
struct ReplicationJobStatus: Sendable {
    /// The job's state.
    var state: ReplicationJobState = .pending
    /// Failed attempts since the last success.
    var errorCount = 0
    /// The last failure, credentials masked; `nil` after a success.
    var lastError: String?
    /// When the job was added.
    var startTime = Date()
    /// When anything about it last changed.
    var lastUpdated = Date()
    /// The counters of the runs that ended (a continuous job runs once per wake).
    var finished = ReplicationProgress()
    /// The counters of the run going on.
    var current = ReplicationProgress()
    /// The source sequence the last checkpoint recorded.
    var checkpointedSequence: JSONValue = .int(0)
    /// Whether the job is waiting for the source's next change (continuous, caught up).
    var waiting = false
    /// The newest events first (`added`, `started`, `crashed`), at most ten.
    var history: [JSONValue] = []

    /// Adds an event to the history.
    mutating func record(_ type: String, reason: String? = nil) {
        var event: JSONObject = ["timestamp": .string(Self.iso8601(Date())), "type": .string(type)]
        if let reason { event["reason"] = .string(reason) }
        history.insert(.object(event), at: 0)
        if history.count > 10 { history.removeLast(history.count - 10) }
        lastUpdated = Date()
    }

    /// Moves the counters of the run that ended into the totals.
    mutating func finishRun() {
        finished = total
        current = ReplicationProgress()
    }

    /// Totals over every run, the current one included.
    var total: ReplicationProgress {
        var sum = finished
        sum.changesProcessed += current.changesProcessed
        sum.revisionsChecked += current.revisionsChecked
        sum.missingRevisionsFound += current.missingRevisionsFound
        sum.docsRead += current.docsRead
        sum.docsWritten += current.docsWritten
        sum.docsFailed += current.docsFailed
        sum.bytesTransferred += current.bytesTransferred
        return sum
    }

    /// Changes the source still holds for this run, when it said.
    var changesPending: JSONValue {
        guard let estimate = current.totalChangesEstimate else { return .null }
        return .int(Int64(max(0, estimate - current.changesProcessed)))
    }

    /// CouchDB's replication statistics object (`info` of a running or completed job).
    /// `bulk_get_docs` and `bulk_get_attempts` both count the revisions read, however they
    /// were fetched.
    var statistics: JSONObject {
        let total = self.total
        return [
            "revisions_checked": .int(Int64(total.revisionsChecked)),
            "missing_revisions_found": .int(Int64(total.missingRevisionsFound)),
            "docs_read": .int(Int64(total.docsRead)),
            "docs_written": .int(Int64(total.docsWritten)),
            "changes_pending": changesPending,
            "doc_write_failures": .int(Int64(total.docsFailed)),
            "bulk_get_docs": .int(Int64(total.docsRead)),
            "bulk_get_attempts": .int(Int64(total.docsRead)),
            "checkpointed_source_seq": checkpointedSequence,
        ]
    }

    /// `2026-11-26T05:24:49Z`, as `_scheduler` writes times.
    static func iso8601(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
    }

    /// `Thu, 26 Nov 2026 05:24:25 GMT`, as a one-shot reply's history writes times.
    static func rfc1123(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
