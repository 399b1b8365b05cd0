import CouchServer
import DocumentStore
import Foundation
import InteropSupport
import Logging
import Testing
@testable import Replication
import TestSupport
import DocumentFormat

/// Replication against the CouchDB-compatible server (`CouchServer`, in-process on
/// 127.0.0.1 with a real data directory): both directions, several parties, conflicts,
/// attachments, interruptions, authentication.
@Suite struct ServerReplicationTests {
    /// A running server over a temporary data directory.
    final class Server: StoppableServer {
        let directory: TemporaryDirectory
        let server: CouchServer
        let port: Int
        let credentials: ServerCredentials?

        init(credentials: ServerCredentials? = nil, anonymousAccess: AnonymousAccess = .all, port: Int = 0, directory: TemporaryDirectory? = nil,
             maxRequestBodySize: Int = 64 * 1024 * 1024, publicHosts: [String] = []) async throws {
            self.directory = try directory ?? TemporaryDirectory()
            self.credentials = credentials
            var logger = Logger(label: "test-server")
            logger.logLevel = .critical
            server = CouchServer(configuration: CouchServerConfiguration(
                dataDirectory: self.directory.url, host: "127.0.0.1", port: port, publicHosts: publicHosts, credentials: credentials,
                anonymousAccess: anonymousAccess, maxRequestBodySize: maxRequestBodySize), logger: logger)
            self.port = try await server.start()
        }

        func url(_ database: String, user: String? = nil, password: String? = nil) -> String {
            let auth = user.map { "\($0):\(password ?? "")@" } ?? ""
            return "http://\(auth)127.0.0.1:\(port)/\(database)"
        }

        func stop() async { await server.stop() }
    }

    func newStore(_ dir: TemporaryDirectory, _ name: String) throws -> DocumentStore {
        try DocumentStore(path: dir.path(name + ".sqlite"))
    }

    func pushOptions(create: Bool = true, batch: Int = 500) -> ReplicationOptions {
        var options = ReplicationOptions()
        options.createTarget = create
        options.batchSize = batch
        return options
    }

    @Test func pushThenPullCarriesEverythingByteEqual() async throws {
        try await withServer(Server()) { server in
            let dir = try TemporaryDirectory()
            let a = try newStore(dir, "a")
            let big = testBytes(5 * 1024 * 1024, seed: 7)
            for index in 0..<30 {
                let attachments: [AttachmentChange] = index % 10 == 0
                    ? [.put(name: "thumbnailImage", contentType: "image/jpeg", data: testBytes(20_000, seed: UInt64(index)))] : []
                _ = try a.create(id: "CDTIS-Recipe-\(index)", body: recipeBody(index), attachments: attachments)
            }
            _ = try a.create(id: "CDTIS-Image-big", body: ["CDTISEntityName": "Image"],
                             attachments: [.put(name: "image", contentType: "image/png", data: big)])
            let doomed = try a.get(id: "CDTIS-Recipe-3")!
            _ = try a.delete(id: doomed.id, parent: doomed.rev)
            let log = ProgressLog()
            let pushed = try await Sync(store: a, remoteURL: server.url("recipes")).push(options: pushOptions(batch: 8),
                                                                                        observer: { log.record($0) })
            #expect(pushed.docsWritten == 31 && pushed.docsFailed == 0)
            #expect(log.all.last?.state == .completed && log.all.last?.bytesTransferred ?? 0 >= big.count)

            let b = try newStore(dir, "b")
            let pulled = try await Sync(store: b, remoteURL: server.url("recipes")).pull()
            #expect(pulled.docsWritten == 31)
            #expect(pulled.endSequence?.value.isNull == false)
            #expect(try StoreSnapshot(a) == StoreSnapshot(b))
            #expect(try b.attachment(id: "CDTIS-Image-big", name: "image")?.data == big)
            #expect(try b.attachment(id: "CDTIS-Recipe-10", name: "thumbnailImage")?.data == testBytes(20_000, seed: 10))
            #expect(try b.get(id: "CDTIS-Recipe-3") == nil)

            // A second sync in either direction moves nothing.
            let again = try await Sync(store: b, remoteURL: server.url("recipes")).sync()
            #expect(again.pull.docsRead == 0 && again.pull.startSequence == pulled.endSequence)
            #expect(again.push.docsWritten == 0)
        }
    }

    @Test func missingDatabaseIsAnErrorOnPullAndCreatedOnPushOnlyWhenAsked() async throws {
        try await withServer(Server()) { server in
            let dir = try TemporaryDirectory()
            let a = try newStore(dir, "a")
            _ = try a.create(id: "one", body: recipeBody(1))
            let sync = try Sync(store: a, remoteURL: server.url("fresh"))
            await #expect(throws: ReplicationError.databaseNotFound(url: "http://127.0.0.1:\(server.port)/fresh")) {
                _ = try await sync.pull()
            }
            await #expect(throws: ReplicationError.databaseNotFound(url: "http://127.0.0.1:\(server.port)/fresh")) {
                _ = try await sync.push(options: pushOptions(create: false))
            }
            let pushed = try await sync.push(options: pushOptions(create: true))
            #expect(pushed.docsWritten == 1)
            #expect(try await CouchDatabase(url: server.url("fresh")).databaseInfo().documentCount == 1)
        }
    }

    @Test func threePartiesConvergeThroughOneServer() async throws {
        try await withServer(Server()) { server in
            let dir = try TemporaryDirectory()
            let a = try newStore(dir, "a")
            let b = try newStore(dir, "b")
            for index in 0..<12 {
                _ = try a.create(id: "CDTIS-Recipe-\(index)", body: recipeBody(index),
                                 attachments: index == 0 ? [.put(name: "thumbnailImage", contentType: "image/jpeg", data: testBytes(3000, seed: 1))] : [])
            }
            let syncA = try Sync(store: a, remoteURL: server.url("shared"))
            let syncB = try Sync(store: b, remoteURL: server.url("shared"))
            _ = try await syncA.push(options: pushOptions())
            _ = try await syncB.pull()
            let doc = try b.get(id: "CDTIS-Recipe-0")!
            _ = try b.update(id: doc.id, parent: doc.rev, body: recipeBody(0, name: "Edited by B"),
                             attachments: [.put(name: "note", contentType: "text/plain", data: Data("from B".utf8))])
            let gone = try b.get(id: "CDTIS-Recipe-5")!
            _ = try b.delete(id: gone.id, parent: gone.rev)
            _ = try await syncB.sync()
            let pulledByA = try await syncA.pull()
            #expect(pulledByA.docsWritten == 2)
            let c = try newStore(dir, "c")
            _ = try await Sync(store: c, remoteURL: server.url("shared")).pull()
            let snapshot = try StoreSnapshot(a)
            #expect(snapshot == (try StoreSnapshot(b)))
            #expect(snapshot == (try StoreSnapshot(c)))
            #expect(try a.get(id: "CDTIS-Recipe-0")?.body["name"] == "Edited by B")
            #expect(try a.attachment(id: "CDTIS-Recipe-0", name: "note")?.data == Data("from B".utf8))
            #expect(try a.attachment(id: "CDTIS-Recipe-0", name: "thumbnailImage")?.data == testBytes(3000, seed: 1))
            #expect(try a.get(id: "CDTIS-Recipe-5") == nil)
        }
    }

    @Test func concurrentEditsOnTwoMachinesGiveOneWinnerAndTheSameConflictsOnAllThree() async throws {
        try await withServer(Server()) { server in
            let dir = try TemporaryDirectory()
            let a = try newStore(dir, "a")
            let b = try newStore(dir, "b")
            _ = try a.create(id: "CDTIS-RecipeType-1", body: ["CDTISEntityName": "RecipeType", "name": "Desserts"])
            let syncA = try Sync(store: a, remoteURL: server.url("shared"))
            let syncB = try Sync(store: b, remoteURL: server.url("shared"))
            _ = try await syncA.push(options: pushOptions())
            _ = try await syncB.pull()
            let base = try a.get(id: "CDTIS-RecipeType-1")!
            _ = try a.update(id: base.id, parent: base.rev, body: ["CDTISEntityName": "RecipeType", "name": "Sweets"])
            _ = try b.update(id: base.id, parent: base.rev, body: ["CDTISEntityName": "RecipeType", "name": "Puddings"])
            _ = try await syncA.sync()
            _ = try await syncB.sync()
            _ = try await syncA.sync()
            let remote = try CouchDatabase(url: server.url("shared"))
            let leaves = try await remote.changes(since: nil, limit: 10).rows.first { $0.id == base.id }!.revisions
            let winnerA = try a.get(id: base.id)!
            let winnerB = try b.get(id: base.id)!
            #expect(winnerA.rev == winnerB.rev && winnerA.body == winnerB.body)
            #expect(leaves.first == winnerA.rev)
            #expect(Set(leaves) == Set([winnerA.rev] + (try a.conflicts(id: base.id))))
            #expect(try a.conflicts(id: base.id) == b.conflicts(id: base.id))
            #expect(try a.conflicts(id: base.id).count == 1)
        }
    }

    @Test func aRunCutOffFromItsServerResumesFromItsCheckpoint() async throws {
        try await withServer(Server(publicHosts: ["127.0.0.2"])) { server in
            let dir = try TemporaryDirectory()
            let a = try newStore(dir, "a")
            for index in 0..<400 { _ = try a.create(id: "CDTIS-Recipe-\(index)", body: recipeBody(index)) }
            var client = CouchClientOptions()
            client.maxRetries = 1
            client.initialBackoff = 0.01
            // Long enough for a loaded machine: the cut is a closed connection, not a timeout.
            client.requestTimeout = 60
            // The push reaches the server through a proxy on 127.0.0.2 with the server's port
            // (so the `Host` it sends is one the server accepts). The progress callback closes
            // the proxy at once, so from the client's side the server is gone before the next
            // batch can be sent, however the tasks are scheduled.
            let url = "http://127.0.0.2:\(server.port)/resume"
            do {
                // Closed at the end of this block, so a proxy can be opened again on its address.
                let proxy = try UploadHoldingProxy(address: "127.0.0.2", port: server.port, upstreamPort: server.port, holdAfter: .max)
                let cut = Flag()
                let first = Sync(store: a, remote: try CouchDatabase(url: url, options: client))
                _ = try await first.push(options: pushOptions(batch: 40)) { progress in
                    if progress.state == .running, progress.docsWritten >= 40, !cut.isSet {
                        cut.set()
                        proxy.stop()
                    }
                }
                Issue.record("push finished although its server went away")
            } catch let error as ReplicationError {
                #expect(error.isTransient || { if case .unreachable = error { return true }; return false }())
            }
            // A batch the server was reading when the proxy closed is written or dropped; a
            // write of the same database queues behind one being written, so the count after
            // it holds every batch that was.
            #expect(try await HTTPTestClient(port: server.port).send("PUT", "/resume/_local/after-the-cut", json: ["n": 1]).status == 201)
            let copied = try await CouchDatabase(url: server.url("resume")).databaseInfo().documentCount ?? 0
            #expect(copied >= 40 && copied < 400)
            let reopened = try UploadHoldingProxy(address: "127.0.0.2", port: server.port, upstreamPort: server.port, holdAfter: .max)
            defer { reopened.stop() }
            let resumed = try await Sync(store: a, remoteURL: url).push(options: pushOptions(batch: 40))
            #expect(resumed.startSequence != nil, "the run resumed from its checkpoint")
            // At most one batch was still in the server's hands when it was counted.
            #expect(resumed.docsWritten <= 400 - copied && resumed.docsWritten >= 400 - copied - 40, "\(resumed.docsWritten) written after \(copied)")
            #expect(try await CouchDatabase(url: url).databaseInfo().documentCount == 400)
        }
    }

    @Test func cancelledPullResumesAndTransfersOnlyTheRest() async throws {
        try await withServer(Server()) { server in
            let dir = try TemporaryDirectory()
            let a = try newStore(dir, "a")
            for index in 0..<90 { _ = try a.create(id: "d\(index)", body: recipeBody(index)) }
            _ = try await Sync(store: a, remoteURL: server.url("db")).push(options: pushOptions())
            let b = try newStore(dir, "b")
            var options = ReplicationOptions()
            options.batchSize = 30
            let holder = Locked<Task<ReplicationSummary, Error>?>(nil)
            let sync = try Sync(store: b, remoteURL: server.url("db"))
            // Made and recorded under the lock: a progress callback that runs before the
            // assignment waits for it instead of finding nothing to cancel.
            let pullOptions = options
            let task = holder.withLock { slot in
                let task = Task {
                    try await sync.pull(options: pullOptions) { progress in
                        if progress.state == .running, progress.docsWritten >= 30 { holder.withLock { $0?.cancel() } }
                    }
                }
                slot = task
                return task
            }
            await #expect(throws: ReplicationError.cancelled) { _ = try await task.value }
            let copied = try b.documentCount()
            #expect(copied >= 30 && copied < 90)
            let resumed = try await sync.pull(options: options)
            #expect(resumed.startSequence != nil && resumed.docsWritten == 90 - copied)
            #expect(try StoreSnapshot(a) == StoreSnapshot(b))
        }
    }

    @Test func credentialsBasicCookieAndWrongPassword() async throws {
        try await withServer(Server(credentials: ServerCredentials(user: "admin", password: "correct-horse"), anonymousAccess: .none)) { server in
            let dir = try TemporaryDirectory()
            let a = try newStore(dir, "a")
            _ = try a.create(id: "x", body: recipeBody(1))
            let wrong = try Sync(store: a, remoteURL: server.url("auth", user: "admin", password: "battery-staple"))
            do {
                _ = try await wrong.push(options: pushOptions())
                Issue.record("push succeeded with a wrong password")
            } catch let error as ReplicationError {
                guard case .unauthorized = error else { Issue.record("unexpected \(error)"); return }
                #expect(!error.description.contains("battery-staple"))
            }
            let basic = try Sync(store: a, remoteURL: server.url("auth", user: "admin", password: "correct-horse"))
            #expect(try await basic.push(options: pushOptions()).docsWritten == 1)
            var cookie = CouchClientOptions()
            cookie.authentication = .cookieSession
            let b = try newStore(dir, "b")
            let viaCookie = try Sync(store: b, remoteURL: server.url("auth", user: "admin", password: "correct-horse"), clientOptions: cookie)
            #expect(try await viaCookie.pull().docsWritten == 1)
        }
    }

    @Test func aReadOnlyRemoteRefusingCheckpointsStillPullsAndResumes() async throws {
        try await withServer(Server(credentials: ServerCredentials(user: "admin", password: "pw"), anonymousAccess: .reads)) { writable in
            let dir = try TemporaryDirectory()
            let a = try newStore(dir, "a")
            for index in 0..<5 { _ = try a.create(id: "d\(index)", body: recipeBody(index)) }
            _ = try await Sync(store: a, remoteURL: writable.url("ro", user: "admin", password: "pw")).push(options: pushOptions())
            let b = try newStore(dir, "b")
            let anonymous = try Sync(store: b, remoteURL: writable.url("ro"))
            let first = try await anonymous.pull()
            #expect(first.docsWritten == 5 && first.checkpointRefused)
            let second = try await anonymous.pull()
            #expect(second.startSequence == first.endSequence && second.docsRead == 0)
        }
    }
}
