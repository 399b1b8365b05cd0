public import Foundation

/// What a finished replication did.
public struct ReplicationSummary: Sendable {
    /// The replication's stable ID (its checkpoint document is `_local/<id>`).
    public var replicationID: String
    /// This run's session ID (in the checkpoint history).
    public var sessionID: String
    /// The source sequence the run started from (`nil` = from the beginning).
    public var startSequence: ReplicationSequence?
    /// The source sequence the run reached.
    public var endSequence: ReplicationSequence?
    /// Changes-feed rows handled.
    public var changesProcessed: Int
    /// Revisions read from the source.
    public var docsRead: Int
    /// Revisions written to the target.
    public var docsWritten: Int
    /// Revisions refused, one by one.
    public var docsFailed: Int
    /// The refusals (the first 1,000).
    public var failures: [DocumentFailure]
    /// Attachment bytes carried.
    public var bytesTransferred: Int
    /// Whether a peer refused to store the checkpoint (the other side's copy was kept).
    public var checkpointRefused: Bool
    /// Wall-clock duration of the run, in seconds.
    public var duration: TimeInterval
}
