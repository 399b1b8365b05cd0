import DocumentFormat
import DocumentIncrementalStore
import DocumentStore
import Foundation
import InteropSupport
import ObjectSync
import Replication
import Synchronization
import Testing
import TestSupport

/// One `ObjectContainer.liveSync` iterated by a task of its own, with what it has reported so
/// far: its events, its steps (through `LiveSyncHooks.stepEnded`) and how it ended.
struct LiveRun {
    /// What the run has reported.
    struct Seen: Sendable {
        var events: [LiveSyncEvent] = []
        var steps: [LiveSyncStepReport] = []
        var failure: ObjectContainerError?
        var ended = false

        /// Whether a step seeded the store.
        var seeded: Bool { steps.contains { $0.result.seeded } }
    }

    final class Log: Sendable {
        let seen = Mutex(Seen())
    }

    /// Short retry delays, so a test does not wait out the defaults.
    static var quick: LiveSyncOptions {
        var options = LiveSyncOptions()
        options.initialBackoff = .milliseconds(100)
        options.maxBackoff = .milliseconds(400)
        options.localPollInterval = .milliseconds(50)
        return options
    }

    let log: Log
    let task: Task<Void, Never>

    /// Starts the live sync of `container` with `remote`.
    init(_ container: ObjectContainer, remote: URL, options: SyncOptions = .init()) throws {
        let log = Log()
        self.log = log
        var hooks = LiveSyncHooks()
        hooks.stepEnded = { report in log.seen.withLock { $0.steps.append(report) } }
        let events = try container.liveSync(with: remote, options: options, live: Self.quick, hooks: hooks)
        task = Task {
            do throws(ObjectContainerError) {
                for try await event in events { log.seen.withLock { $0.events.append(event) } }
            } catch {
                log.seen.withLock { $0.failure = error }
            }
            log.seen.withLock { $0.ended = true }
        }
    }

    /// What it has reported so far.
    var seen: Seen { log.seen.withLock { $0 } }

    /// Waits until `condition` holds for what it has reported (at most `timeout` seconds: a
    /// hang guard, not a latency).
    func wait(timeout: TimeInterval = 120, _ condition: (Seen) -> Bool) async -> Bool {
        await waitUntil(timeout: timeout, interval: .milliseconds(20)) { condition(seen) }
    }

    /// Cancels the iterating task and waits for the events to end.
    func stop() async {
        task.cancel()
        await task.value
    }
}

/// `ObjectContainer.liveSync` between containers of the Notebook model through another store
/// file: what one saves reaches the other while both run, seeding happens once, the lock is
/// held while the events run and free when they end, and failures are typed.
@Suite("Live sync of containers for any model")
struct ContainerLiveSyncTests {
    /// The texts of `container`'s notes, sorted.
    static func noteTexts(_ container: ObjectContainer) throws -> [String] {
        let context = container.newContext()
        return try Note.fetch(in: context).map(\.text).sorted()
    }

    @Test("a save in one container reaches the other through their live syncs, both ways; only the first seeds the empty remote")
    func savesTravelBothWays() async throws {
        let directory = try TemporaryDirectory()
        let remote = directory.file("shared.sqlite")
        let first = try ObjectContainer(for: NotebookModelDefinition.self, url: directory.file("first.sqlite"))
        let second = try ObjectContainer(for: NotebookModelDefinition.self, url: directory.file("second.sqlite"))
        var options = SyncOptions()
        options.seed = { context in _ = try ObjectContainerTests.errands(in: context) }

        let one = try LiveRun(first, remote: remote, options: options)
        #expect(await one.wait { $0.events.contains(.caughtUp) && $0.steps.contains { $0.step == .push && $0.result.pushed > 0 } },
                "\(one.seen.events)")
        #expect(one.seen.seeded)
        #expect(one.seen.events.first == .connected)
        let two = try LiveRun(second, remote: remote, options: options)
        #expect(await two.wait { $0.events.contains(.caughtUp) }, "\(two.seen.events)")
        #expect(!two.seen.seeded, "the remote held the first one's seed: no second copy")
        #expect(two.seen.events.contains { if case .pulled = $0 { true } else { false } }, "\(two.seen.events)")
        #expect(try Self.noteTexts(second) == ["Call Ann back", "Water the plants"])

        // A save in the first reaches the second, which is told through its events.
        let firstContext = first.newContext()
        let folder = try #require(try Folder.fetch(in: firstContext).first)
        try ObjectContainerTests.fileNote("Buy bread", in: folder)
        try firstContext.save()
        #expect(await waitUntil(timeout: 120, interval: .milliseconds(20)) { (try? Self.noteTexts(second).contains("Buy bread")) == true },
                "\(one.seen.events) / \(two.seen.events)")
        // And an edit in the second reaches the first.
        let secondContext = second.newContext()
        let mirrored = try #require(try Folder.fetch(in: secondContext).first)
        mirrored.name = "Chores"
        try secondContext.save()
        #expect(await waitUntil(timeout: 120, interval: .milliseconds(20)) {
            let reader = first.newContext()
            return (try? Folder.fetch(in: reader).map(\.name)) == ["Chores"]
        }, "\(one.seen.events) / \(two.seen.events)")
        #expect(await two.wait { $0.events.contains { if case .pushed = $0 { true } else { false } } })

        // While the events run, the store's sync lock is held: a one-shot sync is refused.
        let firstURL = try #require(first.url)
        #expect(throws: SyncLockError.self) { try SyncLock.tryAcquire(forStore: firstURL) }
        await #expect(throws: ObjectContainerError.self) { try await first.sync(with: remote) }

        for run in [one, two] {
            await run.stop()
            #expect(run.seen.events.last == .stopped(.cancelled), "\(run.seen.events)")
            #expect(run.seen.failure.map { "\($0)" } == nil)
            #expect(!run.seen.steps.contains { !$0.succeeded }, "\(run.seen.steps.compactMap(\.error))")
        }
        // Stopped: the lock is free, and a one-shot sync finds nothing left to move.
        try SyncLock.tryAcquire(forStore: firstURL).release()
        let after = try await second.sync(with: remote)
        #expect(after.pulled == 0 && after.pushed == 0, "\(after)")
        #expect(try Self.noteTexts(first) == (try Self.noteTexts(second)))
    }

    @Test("a second live sync of the same store fails with syncAlreadyRunning before any event")
    func oneLiveSyncPerStore() async throws {
        let directory = try TemporaryDirectory()
        let container = try ObjectContainer(for: NotebookModelDefinition.self, url: directory.file("notebook.sqlite"))
        let running = try LiveRun(container, remote: directory.file("remote.sqlite"))
        #expect(await running.wait { $0.events.contains(.caughtUp) })

        let refused = try LiveRun(container, remote: directory.file("remote.sqlite"))
        #expect(await refused.wait { $0.ended })
        guard case .syncAlreadyRunning? = refused.seen.failure else {
            Issue.record("expected syncAlreadyRunning, got \(String(describing: refused.seen.failure))")
            return
        }
        #expect(refused.seen.events.isEmpty)
        await running.stop()
        #expect(running.seen.events.last == .stopped(.cancelled))
    }

    @Test("a remote holding another app's model stops the live sync with a typed error naming the pull; the lock is free again")
    func foreignModelStops() async throws {
        let directory = try TemporaryDirectory()
        let remote = directory.file("remote.sqlite")
        // The original iOS recipes app's metadata document, as a pull from its database writes it.
        let written = try DocumentStore(path: remote.path)
        try written.insertRevisions([ReplicatedRevision(id: "CDTISMetaData", rev: OriginalAppMetadata.rev, body: OriginalAppMetadata.body)])
        try written.close()

        let url = directory.file("notebook.sqlite")
        let container = try ObjectContainer(for: NotebookModelDefinition.self, url: url)
        let run = try LiveRun(container, remote: remote)
        #expect(await run.wait { $0.ended })
        guard case .syncStepFailed(let step, let cause)? = run.seen.failure else {
            Issue.record("expected syncStepFailed, got \(String(describing: run.seen.failure)); events \(run.seen.events)")
            return
        }
        #expect(step == "pull")
        #expect(cause is DocumentIncrementalStoreError, "\(cause)")
        #expect(!run.seen.events.contains { if case .stopped = $0 { true } else { false } }, "the failure is thrown, not an event")
        let failed = try #require(run.seen.steps.last)
        #expect(failed.step == .pull && !failed.succeeded)
        #expect(try Note.count(in: container.newContext()) == 0, "nothing of the foreign model was stored")
        try SyncLock.tryAcquire(forStore: url).release()
    }
}

/// The same live sync against a live CouchDB (the one `.ci/run` starts).
@Suite("Live sync of containers against a live CouchDB",
       .enabled(if: LiveCouchDB.isConfigured, "COUCHDB_URL is not set: no live CouchDB to sync with"))
struct ContainerLiveSyncCouchDBTests {
    @Test("a save in one in-memory container reaches another through CouchDB while both sync live")
    func throughCouchDB() async throws {
        let couch = try await LiveCouchDB.connect()
        try await couch.withDatabase("livesync") { name in
            let remote = try #require(URL(string: couch.databaseURL(name)))
            let phone = try ObjectContainer.inMemory(for: NotebookModelDefinition.self)
            let laptop = try ObjectContainer.inMemory(for: NotebookModelDefinition.self)
            let onPhone = try LiveRun(phone, remote: remote)
            let onLaptop = try LiveRun(laptop, remote: remote)
            #expect(await onPhone.wait { $0.events.contains(.caughtUp) }, "\(onPhone.seen.events)")
            #expect(await onLaptop.wait { $0.events.contains(.caughtUp) }, "\(onLaptop.seen.events)")

            let phoneContext = phone.newContext()
            _ = try ObjectContainerTests.errands(in: phoneContext)
            try phoneContext.save()
            #expect(await waitUntil(timeout: 120, interval: .milliseconds(20)) {
                (try? ContainerLiveSyncTests.noteTexts(laptop)) == ["Call Ann back", "Water the plants"]
            }, "\(onPhone.seen.events) / \(onLaptop.seen.events)")
            let laptopContext = laptop.newContext()
            let folder = try #require(try Folder.fetch(in: laptopContext).first)
            folder.name = "Chores"
            try laptopContext.save()
            #expect(await waitUntil(timeout: 120, interval: .milliseconds(20)) {
                let reader = phone.newContext()
                return (try? Folder.fetch(in: reader).map(\.name)) == ["Chores"]
            }, "\(onPhone.seen.events) / \(onLaptop.seen.events)")

            for run in [onPhone, onLaptop] {
                await run.stop()
                #expect(run.seen.events.last == .stopped(.cancelled), "\(run.seen.events)")
                #expect(run.seen.failure.map { "\($0)" } == nil)
            }
        }
    }
}
