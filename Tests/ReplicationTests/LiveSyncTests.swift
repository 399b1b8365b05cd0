import CouchServer
import DocumentStore
import Foundation
import Testing
@testable import Replication
import TestSupport
import DocumentFormat

/// `Sync.live` against the in-process server (`ServerReplicationTests.Server`) and between
/// two local stores. Timeouts are hang guards only.
@Suite struct LiveSyncTests {
    /// The events one live sync reported, collected by a task of its own.
    final class EventLog: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [LiveSyncEvent] = []
        private(set) var task: Task<Void, Never>?

        init(_ sequence: LiveSyncEvents) {
            task = Task { [self] in
                for await event in sequence { lock.withLock { events.append(event) } }
            }
        }

        var all: [LiveSyncEvent] { lock.withLock { events } }

        /// Waits until `condition` holds for the events so far (at most `timeout` seconds).
        func wait(timeout: TimeInterval = 180, _ condition: ([LiveSyncEvent]) -> Bool) async -> Bool {
            await waitUntil(timeout: timeout, interval: .milliseconds(20)) { condition(all) }
        }

        /// Cancels the live sync and waits for its events to end.
        func stop() async {
            task?.cancel()
            await task?.value
        }
    }

    static func options() -> LiveSyncOptions {
        var options = LiveSyncOptions()
        options.initialBackoff = .milliseconds(100)
        options.maxBackoff = .milliseconds(400)
        return options
    }

    static var create: ReplicationOptions {
        var options = ReplicationOptions()
        options.createTarget = true
        return options
    }

    static func waitFor(_ id: String, in store: DocumentStore, timeout: TimeInterval = 180) async throws -> Bool {
        try await waitUntil(timeout: timeout, interval: .milliseconds(20)) { try store.get(id: id) != nil }
    }

    @Test func twoStoresFollowEachOtherThroughAServerAndStopWhenCancelled() async throws {
        try await withServer(ServerReplicationTests.Server()) { server in
            let dir = try TemporaryDirectory()
            let a = try DocumentStore(path: dir.path("a.sqlite"))
            let b = try DocumentStore(path: dir.path("b.sqlite"))
            _ = try a.create(id: "before", body: recipeBody(0))
            let liveA = EventLog(try Sync(store: a, remoteURL: server.url("live")).live(options: Self.options(), replication: Self.create))
            #expect(await liveA.wait { $0.contains(.caughtUp) }, "\(liveA.all)")
            #expect(liveA.all.prefix(3) == [.connected, .pushed(1), .caughtUp], "\(liveA.all)")
            let liveB = EventLog(try Sync(store: b, remoteURL: server.url("live")).live(options: Self.options(), replication: Self.create))
            #expect(await liveB.wait { $0.contains(.caughtUp) }, "\(liveB.all)")
            #expect(liveB.all.prefix(3) == [.connected, .pulled(1), .caughtUp], "\(liveB.all)")

            _ = try a.create(id: "from-a", body: recipeBody(1))
            #expect(try await Self.waitFor("from-a", in: b))
            _ = try b.create(id: "from-b", body: recipeBody(2))
            #expect(try await Self.waitFor("from-b", in: a))
            #expect(await liveB.wait { $0.contains(.pushed(1)) && $0.last == .caughtUp }, "\(liveB.all)")

            await liveA.stop()
            await liveB.stop()
            for log in [liveA, liveB] {
                #expect(log.all.last == .stopped(.cancelled), "\(log.all)")
                #expect(!log.all.contains { if case .offline = $0 { true } else { false } }, "\(log.all)")
            }
            #expect(try StoreSnapshot(a) == StoreSnapshot(b))
        }
    }

    /// Two stores live-syncing through a server whose data outlives it, so that a test can
    /// stop it and start another on the same port and data; both have caught up once.
    struct TwoLiveStores {
        let directory: TemporaryDirectory
        let storeDirectory: TemporaryDirectory
        let server: ServerReplicationTests.Server
        let a: DocumentStore
        let b: DocumentStore
        let liveA: EventLog
        let liveB: EventLog

        init(database: String, options: LiveSyncOptions) async throws {
            directory = try TemporaryDirectory()
            server = try await ServerReplicationTests.Server(directory: directory)
            storeDirectory = try TemporaryDirectory()
            a = try DocumentStore(path: storeDirectory.path("a.sqlite"))
            b = try DocumentStore(path: storeDirectory.path("b.sqlite"))
            var client = CouchClientOptions()
            client.maxRetries = 0
            liveA = EventLog(try Sync(store: a, remoteURL: server.url(database), clientOptions: client).live(options: options, replication: LiveSyncTests.create))
            liveB = EventLog(try Sync(store: b, remoteURL: server.url(database), clientOptions: client).live(options: options, replication: LiveSyncTests.create))
            #expect(await liveA.wait { $0.contains(.caughtUp) })
            #expect(await liveB.wait { $0.contains(.caughtUp) })
        }

        /// A new server on the old one's port and data.
        func restartServer() async throws -> ServerReplicationTests.Server {
            try await ServerReplicationTests.Server(port: server.port, directory: directory)
        }
    }

    @Test func theServerGoingAwayIsOfflineWithGrowingDelaysAndTheSyncCatchesUpWhenItComesBack() async throws {
        let setup = try await TwoLiveStores(database: "live", options: Self.options())
        let (a, b, liveA, liveB) = (setup.a, setup.b, setup.liveA, setup.liveB)
        await setup.server.stop()
        _ = try a.create(id: "while-offline", body: recipeBody(1))
        let delays: ([LiveSyncEvent]) -> [Duration] = { $0.compactMap { if case .offline(_, let delay) = $0 { delay } else { nil } } }
        #expect(await liveA.wait { delays($0).count >= 3 }, "\(liveA.all)")
        let seen = delays(liveA.all)
        #expect(Array(seen.prefix(3)) == [.milliseconds(100), .milliseconds(200), .milliseconds(400)], "\(seen)")

        try await withServer(setup.restartServer()) { restarted async throws in
            #expect(try await Self.waitFor("while-offline", in: b))
            #expect(await liveA.wait { $0.last == .caughtUp }, "\(liveA.all)")
            await liveA.stop()
            await liveB.stop()
            #expect(liveA.all.filter { $0 == .connected }.count == 2, "\(liveA.all)")
        }
    }

    /// After a long outage the delay has grown (here it is 60 s from the start), yet the sync
    /// resumes within about a probe interval of the server coming back: while it waits, it asks
    /// the server every 200 ms whether it answers. Without the probe the change would arrive
    /// only after the full delay, past the 30 s this test waits.
    @Test func aServerBackAfterALongOutageIsFollowedAgainWithoutWaitingOutTheDelay() async throws {
        var options = Self.options()
        // A backoff of an hour: only the probe can bring the sync back within the test.
        options.initialBackoff = .seconds(3600)
        options.maxBackoff = .seconds(3600)
        options.reachabilityProbeInterval = .milliseconds(200)
        let setup = try await TwoLiveStores(database: "outage", options: options)
        let (a, b, liveA, liveB) = (setup.a, setup.b, setup.liveA, setup.liveB)
        await setup.server.stop()
        _ = try a.create(id: "after-the-outage", body: recipeBody(1))
        let offline: ([LiveSyncEvent]) -> Bool = { $0.contains { if case .offline(_, let delay) = $0 { delay == .seconds(3600) } else { false } } }
        #expect(await liveA.wait(offline), "\(liveA.all)")
        // Probes fail meanwhile (nothing listens), and nothing else is tried: a negative
        // check over a bounded window of five probe intervals.
        try await observationWindow(.seconds(1))
        #expect(liveA.all.filter { if case .offline = $0 { true } else { false } }.count == 1, "\(liveA.all)")

        try await withServer(setup.restartServer()) { restarted async throws in
            #expect(try await Self.waitFor("after-the-outage", in: b, timeout: 120), "\(liveA.all) \(liveB.all)")
            await liveA.stop()
            await liveB.stop()
        }
    }

    @Test func refusedCredentialsStopWithTheTypedError() async throws {
        try await withServer(ServerReplicationTests.Server(credentials: ServerCredentials(user: "admin", password: "correct-horse"), anonymousAccess: .none)) { server in
            let dir = try TemporaryDirectory()
            let a = try DocumentStore(path: dir.path("a.sqlite"))
            let log = EventLog(try Sync(store: a, remoteURL: server.url("live", user: "admin", password: "wrong")).live(options: Self.options(), replication: Self.create))
            await log.task?.value
            guard case .stopped(.failed(.unauthorized))? = log.all.last else {
                Issue.record("expected a stop on 401: \(log.all)")
                return
            }
            #expect(log.all.count == 1, "\(log.all)")
        }
    }

    @Test func aServerFeedWaitEndsWithTheTimeoutOrTheFirstChange() async throws {
        try await withServer(ServerReplicationTests.Server()) { server in
            let dir = try TemporaryDirectory()
            let a = try DocumentStore(path: dir.path("a.sqlite"))
            _ = try a.create(id: "first", body: recipeBody(1))
            let sync = try Sync(store: a, remoteURL: server.url("feed"))
            let pushed = try await sync.push(options: Self.create)
            let remote = try CouchDatabase(url: server.url("feed"))
            // Changes after the start exist; none after the push's end, until one comes.
            #expect(try await remote.waitForChanges(since: nil, timeout: .seconds(30)))
            #expect(try await !remote.waitForChanges(since: pushed.endSequence, timeout: .milliseconds(200)))
            let waitEnded = Flag()
            let waiting = Task {
                defer { waitEnded.set() }
                return try await remote.waitForChanges(since: pushed.endSequence, timeout: .seconds(30))
            }
            // A negative check: with nothing new the wait does not end on its own within a
            // bounded window; then the change is the event that ends it.
            try await observationWindow(.milliseconds(200))
            #expect(!waitEnded.isSet)
            _ = try a.create(id: "second", body: recipeBody(2))
            _ = try await sync.push(options: Self.create)
            #expect(try await waiting.value)
            // Cancelling a wait ends it at once.
            let cancelledEnded = Flag()
            let cancelled = Task {
                defer { cancelledEnded.set() }
                return try await remote.waitForChanges(since: .init(.string("99999")), timeout: .seconds(30))
            }
            // A negative check: the wait does not end on its own within a bounded window, so the
            // cancellation is what ends it.
            try await observationWindow(.milliseconds(100))
            #expect(!cancelledEnded.isSet)
            cancelled.cancel()
            await #expect(throws: ReplicationError.cancelled) { try await cancelled.value }
        }
    }

    @Test func twoLocalStoresLiveWithoutAServer() async throws {
        let dir = try TemporaryDirectory()
        let a = try DocumentStore(path: dir.path("a.sqlite"))
        let b = try DocumentStore(path: dir.path("b.sqlite"))
        let log = EventLog(Sync(store: a, remote: LocalDatabase(store: b)).live(options: Self.options()))
        // A hang guard: on a machine running the whole suite the first round can take a while.
        #expect(await log.wait(timeout: 180) { $0.contains(.caughtUp) }, "\(log.all)")
        _ = try a.create(id: "pushed", body: recipeBody(1))
        #expect(try await Self.waitFor("pushed", in: b))
        _ = try b.create(id: "pulled", body: recipeBody(2))
        #expect(try await Self.waitFor("pulled", in: a))
        // The document lands before the pull that wrote it returns and reports it: wait for
        // the report too, or stopping now could cancel the pull's last step first.
        #expect(await log.wait(timeout: 180) { $0.contains(.pulled(1)) }, "\(log.all)")
        await log.stop()
        #expect(log.all.contains(.pushed(1)) && log.all.contains(.pulled(1)) && log.all.last == .stopped(.cancelled), "\(log.all)")
    }
}
