public import CouchProtocol
import DocumentStore
public import Foundation
public import DocumentFormat

/// A database that can take part in a replication, on either side: a CouchDB-compatible
/// server over HTTP (`CouchDatabase`) or a local `DocumentStore` (`LocalDatabase`).
///
/// The replicator only speaks this protocol, so pull, push and local-to-local replication are
/// one algorithm with the roles of source and target swapped.
public protocol ReplicationPeer: Sendable {
    /// A stable text naming this database without any credentials (a URL with the password
    /// removed, or a store's UUID). It goes into replication IDs and log lines.
    var peerIdentity: String { get }

    /// How many fetch or write requests the replicator should run against this peer at once
    /// (several HTTP connections for a server; one writer for a SQLite store).
    var preferredConcurrency: Int { get }

    /// Database information; throws `ReplicationError.databaseNotFound` when it doesn't exist.
    func databaseInfo() async throws -> DatabaseInfo

    /// Creates the database; succeeds when it already exists.
    func createDatabase() async throws

    /// Up to `limit` changes after `since` (`nil` = from the start), every leaf revision
    /// listed; with a `selection`, only the documents it selects.
    func changes(since: ReplicationSequence?, limit: Int, selection: ChangesSelection?) async throws -> ChangesPage

    /// Waits until the database has changes after `since` (`nil` = from the start) and
    /// returns `true`, or returns `false` once `timeout` has passed without any. Live sync
    /// follows a remote with it. The default polls ``changes(since:limit:)`` every 250 ms;
    /// `CouchDatabase` holds one `_changes?feed=longpoll` request open instead.
    func waitForChanges(since: ReplicationSequence?, timeout: Duration) async throws -> Bool

    /// Whether the database's server answers at all right now, asked once, without retries,
    /// and within about `timeout`: while a live sync waits out its backoff after the server
    /// could not be reached, it asks this every half second so that it resumes as soon as
    /// the server is back rather than when the (up to 30 s) delay ends. A local database is
    /// always reachable.
    func isReachable(timeout: Duration) async -> Bool

    /// The leaf revisions each of the documents `ids` has now (those `selector` selects, when
    /// given); a document the database does not hold, or the selector leaves out, is absent.
    /// A replication asks it to offer again the documents an earlier run could not copy: it
    /// offers their leaves as they are now, not the revisions once refused.
    func currentLeaves(of ids: Set<String>, selector: DocumentSelector?) async throws -> [String: [RevisionID]]

    /// For each document, the given revisions this database lacks and the revisions it holds
    /// that could be their ancestors; documents with nothing missing are left out.
    func revsDiff(_ revisions: [String: [RevisionID]]) async throws -> [String: RevsDiffEntry]

    /// Reads revisions with their history and attachments (data for those changed since
    /// `attachmentsSince`, stubs for the others).
    func fetchRevisions(_ requests: [RevisionFetch]) async throws -> FetchResult

    /// Writes revisions as they are (`new_edits=false`), keeping existing branches; returns the
    /// revisions the database refused one by one. Throws only when the write as a whole failed.
    func writeRevisions(_ revisions: [ReplicatedRevision]) async throws -> [DocumentFailure]

    /// A `_local` document's body (ID without the `_local/` prefix), or `nil` if absent.
    func localDocument(id: String) async throws -> JSONObject?

    /// Writes a `_local` document (ID without the `_local/` prefix), replacing any previous one.
    func putLocalDocument(id: String, body: JSONObject) async throws

    /// The bytes of one attachment of one revision.
    func attachment(documentID: String, rev: RevisionID, name: String) async throws -> Data

    /// Remembers that the database `peer` names (an identity and instance) holds each
    /// document's `revisions`: after a pull, what its changes feed listed; after a push, what
    /// it accepted. A peer that keeps no such memory (a server) ignores it.
    func recordRevisions(_ revisions: [String: [RevisionID]], heldBy peer: String) async throws

    /// Of `revisions`, the documents whose every listed revision `peer` is remembered to hold;
    /// a push leaves those out of `_revs_diff` (no echo of what came from, or went to, the
    /// other side), and a pull neither asks about nor records again what this peer remembers
    /// the source holding (it came from the source or went to it, so this peer has it too).
    /// Empty for a peer that keeps no memory.
    func documentsHeld(_ revisions: [String: [RevisionID]], by peer: String) async throws -> Set<String>

    /// Forgets what was remembered for other instances of the database `peer` names (its
    /// identity followed by `@`), once that database turned out to be a new instance; with
    /// `includingThis`, for `peer` itself too (its checkpoint vanished: it may have been
    /// recreated within the resolution of its instance stamp).
    func forgetOtherInstances(of peer: String, includingThis: Bool) async throws
}

extension ReplicationPeer {
    /// Reads the documents' rows from the changes feed filtered to their IDs, from the start
    /// (for a CouchDB server, one `_changes?filter=_doc_ids` request).
    public func currentLeaves(of ids: Set<String>, selector: DocumentSelector?) async throws -> [String: [RevisionID]] {
        guard !ids.isEmpty else { return [:] }
        let selection = ChangesSelection(docIDs: ids, selector: selector)
        let pageSize = max(100, ids.count)
        var leaves: [String: [RevisionID]] = [:]
        var since: ReplicationSequence?
        while true {
            let (page, isLast) = try await ChangesFeed.page(of: self, since: since, pageSize: pageSize, selection: selection)
            for row in page.rows where ids.contains(row.id) { leaves[row.id] = row.revisions }
            if isLast { return leaves }
            since = page.lastSequence
        }
    }

    /// Up to `limit` changes after `since`, unfiltered.
    public func changes(since: ReplicationSequence?, limit: Int) async throws -> ChangesPage {
        try await changes(since: since, limit: limit, selection: nil)
    }

    /// A peer in this process: always reachable.
    public func isReachable(timeout: Duration) async -> Bool { true }

    /// A peer without memory of what others hold: nothing to record.
    public func recordRevisions(_ revisions: [String: [RevisionID]], heldBy peer: String) async throws {}

    /// A peer without memory of what others hold: nothing is known held.
    public func documentsHeld(_ revisions: [String: [RevisionID]], by peer: String) async throws -> Set<String> { [] }

    /// A peer without memory of what others hold: nothing to forget.
    public func forgetOtherInstances(of peer: String, includingThis: Bool) async throws {}
}
