import CouchProtocol
import CouchServer
import DocumentStore
import Foundation
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing
@testable import Replication
import DocumentFormat

/// A push never offers a remote what came from it or already went to it (issue #10, "No
/// echo"): the store remembers per remote database instance which revisions it holds. The
/// remote is the real server over HTTP; a counting wrapper records what the replicator asks.
@Suite struct NoEchoTests {
    typealias Server = ServerReplicationTests.Server

    /// A real peer whose `_revs_diff`, writes and remembered revisions are counted, document
    /// by document; what it remembers of other peers is the inner peer's.
    final class CountingPeer: ReplicationPeer {
        let inner: any ReplicationPeer
        private let counts = Mutex((revsDiffCalls: 0, revsDiffIDs: [String](), written: 0))
        private let recordedCount = Mutex(0)

        init(_ inner: any ReplicationPeer) { self.inner = inner }

        var revsDiffCalls: Int { counts.withLock { $0.revsDiffCalls } }
        var revsDiffIDs: [String] { counts.withLock { $0.revsDiffIDs.sorted() } }
        var written: Int { counts.withLock { $0.written } }
        var recorded: Int { recordedCount.withLock { $0 } }
        func reset() {
            counts.withLock { $0 = (0, [], 0) }
            recordedCount.withLock { $0 = 0 }
        }

        var peerIdentity: String { inner.peerIdentity }
        var preferredConcurrency: Int { inner.preferredConcurrency }
        func databaseInfo() async throws -> DatabaseInfo { try await inner.databaseInfo() }
        func createDatabase() async throws { try await inner.createDatabase() }
        func changes(since: ReplicationSequence?, limit: Int, selection: ChangesSelection?) async throws -> ChangesPage {
            try await inner.changes(since: since, limit: limit, selection: selection)
        }
        func revsDiff(_ revisions: [String: [RevisionID]]) async throws -> [String: RevsDiffEntry] {
            counts.withLock {
                $0.revsDiffCalls += 1
                $0.revsDiffIDs += revisions.keys
            }
            return try await inner.revsDiff(revisions)
        }
        func fetchRevisions(_ requests: [RevisionFetch]) async throws -> FetchResult { try await inner.fetchRevisions(requests) }
        func writeRevisions(_ revisions: [ReplicatedRevision]) async throws -> [DocumentFailure] {
            counts.withLock { $0.written += revisions.count }
            return try await inner.writeRevisions(revisions)
        }
        func localDocument(id: String) async throws -> JSONObject? { try await inner.localDocument(id: id) }
        func putLocalDocument(id: String, body: JSONObject) async throws { try await inner.putLocalDocument(id: id, body: body) }
        func attachment(documentID: String, rev: RevisionID, name: String) async throws -> Data {
            try await inner.attachment(documentID: documentID, rev: rev, name: name)
        }
        func recordRevisions(_ revisions: [String: [RevisionID]], heldBy peer: String) async throws {
            recordedCount.withLock { $0 += revisions.count }
            try await inner.recordRevisions(revisions, heldBy: peer)
        }
        func documentsHeld(_ revisions: [String: [RevisionID]], by peer: String) async throws -> Set<String> {
            try await inner.documentsHeld(revisions, by: peer)
        }
        func forgetOtherInstances(of peer: String, includingThis: Bool) async throws {
            try await inner.forgetOtherInstances(of: peer, includingThis: includingThis)
        }
    }

    private func options(create: Bool = false, batch: Int = 500) -> ReplicationOptions {
        var options = ReplicationOptions()
        options.createTarget = create
        options.batchSize = batch
        return options
    }

    @Test func aPushAfterAPullOffersOnlyWhatChangedHere() async throws {
        try await withServer(Server()) { server in
            let dir = try TemporaryDirectory()
            let origin = try DocumentStore(path: dir.path("origin.sqlite"))
            for index in 0..<60 { _ = try origin.create(id: "r\(index)", body: recipeBody(index)) }
            let originRemote = CountingPeer(try CouchDatabase(url: server.url("book")))
            _ = try await Sync(store: origin, remote: originRemote).push(options: options(create: true, batch: 25))
            #expect(originRemote.written == 60)

            // A second machine pulls everything, then syncs: its push asks nothing and sends nothing.
            let other = try DocumentStore(path: dir.path("other.sqlite"))
            let remote = CountingPeer(try CouchDatabase(url: server.url("book")))
            let sync = Sync(store: other, remote: remote)
            #expect(try await sync.pull(options: options(batch: 25)).docsWritten == 60)
            remote.reset()
            let quiet = try await sync.sync(options: options(batch: 25))
            #expect(quiet.pull.docsWritten == 0 && quiet.push.docsWritten == 0)
            #expect(remote.revsDiffCalls == 0)
            #expect(remote.written == 0)
            #expect(quiet.push.changesProcessed == 60)

            // An edit and a new recipe here: exactly those two are offered, and sent.
            let edited = try other.get(id: "r7")!
            _ = try other.update(id: "r7", parent: edited.rev, body: recipeBody(7, name: "Edited"))
            _ = try other.create(id: "mine", body: recipeBody(99))
            remote.reset()
            let pushed = try await sync.push(options: options(batch: 25))
            #expect(remote.revsDiffIDs == ["mine", "r7"])
            #expect(pushed.docsWritten == 2)
            // What was just accepted is not offered again, nor what the origin pushed itself.
            remote.reset()
            _ = try await sync.push(options: options(batch: 25))
            #expect(remote.revsDiffCalls == 0)
            originRemote.reset()
            let originAgain = try await Sync(store: origin, remote: originRemote).sync(options: options(batch: 25))
            #expect(originAgain.pull.docsWritten == 2)
            #expect(originRemote.revsDiffCalls == 0)
            #expect(originRemote.written == 0)
        }
    }

    /// The first pull after a push reads the pushed documents back from the remote's changes
    /// feed; the store remembers the remote holding them, so it neither asks itself about them
    /// nor records them again. Only a change made on the remote is asked about and written.
    @Test func aPullAfterAPushAsksNothingAboutWhatThePushSent() async throws {
        try await withServer(Server()) { server in
            let dir = try TemporaryDirectory()
            let store = try DocumentStore(path: dir.path("store.sqlite"))
            for index in 0..<60 { _ = try store.create(id: "r\(index)", body: recipeBody(index)) }
            let local = CountingPeer(LocalDatabase(store: store))
            let remote = try CouchDatabase(url: server.url("book"))
            let pushed = try await Replicator(source: local, target: remote, options: options(create: true, batch: 25)).run()
            #expect(pushed.docsWritten == 60)

            // Another machine edits one recipe on the remote.
            let other = try DocumentStore(path: dir.path("other.sqlite"))
            let otherSync = Sync(store: other, remote: try CouchDatabase(url: server.url("book")))
            _ = try await otherSync.pull(options: options(batch: 25))
            _ = try other.update(id: "r5", parent: try #require(try other.get(id: "r5")).rev, body: recipeBody(5, name: "Theirs"))
            _ = try await otherSync.push(options: options(batch: 25))

            local.reset()
            let pulled = try await Replicator(source: remote, target: local, options: options(batch: 25)).run()
            #expect(pulled.changesProcessed == 60)
            #expect(pulled.docsWritten == 1)
            #expect(local.revsDiffIDs == ["r5"], "only the remote's edit is asked about")
            #expect(local.written == 1)
            #expect(local.recorded == 1, "only the remote's edit is newly remembered")
            #expect(try store.get(id: "r5")?.body["name"] == "Theirs")
        }
    }

    @Test func aRecreatedRemoteIsOfferedEverythingAgain() async throws {
        try await withServer(Server()) { server in
            let dir = try TemporaryDirectory()
            let store = try DocumentStore(path: dir.path("store.sqlite"))
            for index in 0..<10 { _ = try store.create(id: "r\(index)", body: recipeBody(index)) }
            let remote = CountingPeer(try CouchDatabase(url: server.url("book")))
            let sync = Sync(store: store, remote: remote)
            _ = try await sync.push(options: options(create: true))
            remote.reset()
            _ = try await sync.push(options: options())
            #expect(remote.revsDiffCalls == 0)

            // Deleted and created again: nothing of what the old database held is taken for granted.
            for method in ["DELETE", "PUT"] {
                var request = URLRequest(url: URL(string: server.url("book"))!)
                request.httpMethod = method
                let (_, response) = try await URLSession.shared.data(for: request)
                #expect((200..<300).contains((response as? HTTPURLResponse)?.statusCode ?? 0))
            }
            remote.reset()
            let again = try await sync.sync(options: options())
            #expect(again.push.docsWritten == 10)
            #expect(remote.revsDiffIDs.count == 10)
            let fresh = try DocumentStore(path: dir.path("fresh.sqlite"))
            #expect(try await Sync(store: fresh, remoteURL: server.url("book")).pull().docsWritten == 10)
        }
    }
}
