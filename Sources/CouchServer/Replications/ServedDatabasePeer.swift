import CouchProtocol
import DocumentFormat
import DocumentStore
import Foundation
import Replication

/// A database this server serves, as a replication peer: the engine's `LocalDatabase` over
/// the served store, which tells the database's `ChangeNotifier` after every write, so the
/// server's longpoll, continuous and eventsource `_changes` feeds see replicated documents
/// at once, and which waits for changes on that notifier instead of polling.
struct ServedDatabasePeer: ReplicationPeer {
    /// The served database.
    let database: Database
    private let local: LocalDatabase

    init(database: Database) {
        self.database = database
        self.local = LocalDatabase(store: database.store)
    }

    var peerIdentity: String { local.peerIdentity }
    var preferredConcurrency: Int { local.preferredConcurrency }

    func databaseInfo() async throws -> DatabaseInfo {
        try checkNotDeleted()
        return try await local.databaseInfo()
    }

    /// The database exists: the job opened it (and created it, with `create_target`).
    func createDatabase() async throws {}

    func changes(since: ReplicationSequence?, limit: Int, selection: ChangesSelection?) async throws -> ChangesPage {
        try checkNotDeleted()
        return try await local.changes(since: since, limit: limit, selection: selection)
    }

    /// Waits on the database's notifier (woken by every write through the server or by a
    /// replication), looking at the store's last sequence after each wake and at least twice
    /// a second, so a write between the look and the wait is never missed for long.
    func waitForChanges(since: ReplicationSequence?, timeout: Duration) async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        let start = since?.value.intValue ?? since?.value.stringValue.flatMap { Int64($0) } ?? 0
        while true {
            try checkNotDeleted()
            let last = try await database.store.withReader { store in try store.lastSequence }
            if last > start { return true }
            let now = clock.now
            if now >= deadline { return false }
            if Task.isCancelled { throw ReplicationError.cancelled }
            await database.notifier.wait(timeout: min(.milliseconds(500), now.duration(to: deadline)))
        }
    }

    func currentLeaves(of ids: Set<String>, selector: DocumentSelector?) async throws -> [String: [RevisionID]] {
        try await local.currentLeaves(of: ids, selector: selector)
    }

    func revsDiff(_ revisions: [String: [RevisionID]]) async throws -> [String: RevsDiffEntry] {
        try await local.revsDiff(revisions)
    }

    func fetchRevisions(_ requests: [RevisionFetch]) async throws -> FetchResult {
        try await local.fetchRevisions(requests)
    }

    func writeRevisions(_ revisions: [ReplicatedRevision]) async throws -> [DocumentFailure] {
        try checkNotDeleted()
        let failures = try await local.writeRevisions(revisions)
        if failures.count < revisions.count { database.didWrite() }
        return failures
    }

    func localDocument(id: String) async throws -> JSONObject? {
        try await local.localDocument(id: id)
    }

    func putLocalDocument(id: String, body: JSONObject) async throws {
        try checkNotDeleted()
        try await local.putLocalDocument(id: id, body: body)
    }

    func attachment(documentID: String, rev: RevisionID, name: String) async throws -> Data {
        try await local.attachment(documentID: documentID, rev: rev, name: name)
    }

    func recordRevisions(_ revisions: [String: [RevisionID]], heldBy peer: String) async throws {
        try await local.recordRevisions(revisions, heldBy: peer)
    }

    func documentsHeld(_ revisions: [String: [RevisionID]], by peer: String) async throws -> Set<String> {
        try await local.documentsHeld(revisions, by: peer)
    }

    func forgetOtherInstances(of peer: String, includingThis: Bool) async throws {
        try await local.forgetOtherInstances(of: peer, includingThis: includingThis)
    }

    /// A database being deleted is gone for the replication too.
    private func checkNotDeleted() throws {
        if database.lifecycle.isDeleting { throw ReplicationError.databaseNotFound(url: database.name.name) }
    }
}
