import DocumentStore
public import DocumentFormat

/// What a peer says about its database: where its changes feed ends and how many documents
/// it holds.
public struct DatabaseInfo: Sendable, Hashable {
    /// The sequence of the newest change.
    public var updateSequence: ReplicationSequence
    /// Live documents, when the peer reports it.
    public var documentCount: Int?
    /// What tells this database apart from an earlier one of the same name (a server's
    /// `instance_start_time`, a store's UUID), when the peer reports one that does; a
    /// deleted and recreated database gets a new one, so a checkpoint recorded against the
    /// old one is not trusted.
    public var instance: String?

    /// Makes a database description.
    public init(updateSequence: ReplicationSequence, documentCount: Int?, instance: String? = nil) {
        self.updateSequence = updateSequence
        self.documentCount = documentCount
        self.instance = instance
    }
}

/// One row of a changes feed read with `style=all_docs`.
public struct ChangeRow: Sendable, Hashable {
    /// The row's sequence (CouchDB may leave it `nil` with `seq_interval`).
    public var sequence: ReplicationSequence?
    /// The document ID.
    public var id: String
    /// Every leaf revision of the document.
    public var revisions: [RevisionID]
    /// Whether the winning revision is a tombstone.
    public var deleted: Bool

    /// Makes a change row.
    public init(sequence: ReplicationSequence?, id: String, revisions: [RevisionID], deleted: Bool) {
        self.sequence = sequence
        self.id = id
        self.revisions = revisions
        self.deleted = deleted
    }
}

/// One page of a changes feed.
public struct ChangesPage: Sendable {
    /// The rows, oldest first.
    public var rows: [ChangeRow]
    /// Where the next page starts (`last_seq`).
    public var lastSequence: ReplicationSequence
    /// Changes left after this page, when the peer reports it.
    public var pending: Int?
    /// Whether the page reaches the end of the feed, when the peer knows better than a short
    /// page would tell (a local store filtering its own feed reads more than it returns).
    public var reachedEnd: Bool?

    /// Makes a page.
    public init(rows: [ChangeRow], lastSequence: ReplicationSequence, pending: Int?) {
        self.rows = rows
        self.lastSequence = lastSequence
        self.pending = pending
    }
}

/// A request to read given revisions of one document with their ancestry.
public struct RevisionFetch: Sendable, Hashable {
    /// The document ID.
    public var id: String
    /// The revisions wanted (leaves the target lacks).
    public var revisions: [RevisionID]
    /// Revisions the target already holds: attachments not changed since them travel as stubs.
    public var attachmentsSince: [RevisionID]

    /// Makes a fetch request.
    public init(id: String, revisions: [RevisionID], attachmentsSince: [RevisionID] = []) {
        self.id = id
        self.revisions = revisions
        self.attachmentsSince = attachmentsSince
    }
}

/// The outcome of reading revisions: what was read, and what could not be.
public struct FetchResult: Sendable {
    /// The revisions read.
    public var revisions: [ReplicatedRevision]
    /// Revisions the source could not supply (deleted by compaction, refused, …).
    public var failures: [DocumentFailure]

    /// Makes a result.
    public init(revisions: [ReplicatedRevision], failures: [DocumentFailure]) {
        self.revisions = revisions
        self.failures = failures
    }
}
