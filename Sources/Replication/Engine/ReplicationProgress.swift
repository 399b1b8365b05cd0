/// Where a replication stands, reported to its observer after each step.
public struct ReplicationProgress: Sendable, Hashable {
    /// The phase of the run.
    public enum State: Sendable, Hashable {
        /// Checking databases and reading checkpoints.
        case starting
        /// Copying batches.
        case running
        /// Finished; everything up to the end sequence is on the target.
        case completed
        /// Stopped by cancellation; the next run resumes from the last checkpoint.
        case cancelled
        /// Stopped by an error (its description); the next run resumes from the last checkpoint.
        case failed(String)
    }

    /// The phase.
    public var state: State = .starting
    /// Changes-feed rows handled so far.
    public var changesProcessed: Int = 0
    /// Estimated rows in all (processed plus what the source says is pending), when known.
    public var totalChangesEstimate: Int?
    /// Revisions offered to the target in `_revs_diff` (CouchDB's `revisions_checked`).
    public var revisionsChecked: Int = 0
    /// Of those, the revisions the target lacked (CouchDB's `missing_revisions_found`).
    public var missingRevisionsFound: Int = 0
    /// Revisions read from the source.
    public var docsRead: Int = 0
    /// Revisions written to the target.
    public var docsWritten: Int = 0
    /// Revisions the target (or the source) refused.
    public var docsFailed: Int = 0
    /// Attachment bytes carried.
    public var bytesTransferred: Int = 0

    /// A fresh progress record.
    public init() {}

    /// The fraction done in 0…1, when a total is known.
    public var fractionCompleted: Double? {
        guard let total = totalChangesEstimate, total > 0 else { return state == .completed ? 1 : nil }
        return min(1, Double(changesProcessed) / Double(total))
    }
}
