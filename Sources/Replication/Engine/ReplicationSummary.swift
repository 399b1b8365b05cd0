public import Foundation
public import DocumentFormat

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
    /// Revisions refused in this run, one by one (a document offered again and refused
    /// again counts each time).
    public var docsFailed: Int
    /// This run's refusals (the first 1,000).
    public var failures: [DocumentFailure]
    /// Attachment bytes carried.
    public var bytesTransferred: Int
    /// Whether a peer refused to store the checkpoint (the other side's copy was kept).
    public var checkpointRefused: Bool
    /// Wall-clock duration of the run, in seconds.
    public var duration: TimeInterval
    /// The documents still not copied when the run ended, one per document by ID: this
    /// run's refusals and those of earlier runs offered again and refused again. The
    /// checkpoint lists them and every later run offers them again until they are copied, or
    /// the document is gone or changed and its new revision copied.
    public var outstandingRefusals: [DocumentFailure] = []
}
