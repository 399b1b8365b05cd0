import DocumentStore
import Foundation
import Replication
import Synchronization
import Testing
@testable import RecipesKit
import RecipesSyncKit
import TestSupport

/// `RecipesSync.live` (ObjectSync's live sync with the `recipes` program's records) between
/// store files, as `recipes sync --live` runs it: under the store's sync lock, iterated by a
/// task of its own. Timeouts are hang guards only.
@Suite("Recipes live sync between store files")
struct RecipesLiveSyncTests {
    /// A live sync of one store, holding its lock, with the events it reported so far.
    struct Running {
        final class Log: Sendable {
            let events = Mutex<[LiveSyncEvent]>([])
        }

        let log: Log
        let task: Task<Void, Never>

        init(_ store: RecipesStore, remote: URL) throws {
            let log = Log()
            self.log = log
            var options = LiveSyncOptions()
            options.localPollInterval = .milliseconds(50)
            options.initialBackoff = .milliseconds(100)
            options.maxBackoff = .milliseconds(400)
            let sync = try store.sync(with: remote)
            let lock = try SyncLock.tryAcquire(forStore: store.url)
            task = Task {
                defer { lock.release() }
                for await event in sync.live(options: options) { log.events.withLock { $0.append(event) } }
            }
        }

        var events: [LiveSyncEvent] { log.events.withLock { $0 } }

        func wait(_ condition: ([LiveSyncEvent]) -> Bool) async -> Bool {
            await waitUntil(timeout: 120, interval: .milliseconds(20)) { condition(events) }
        }

        func stop() async {
            task.cancel()
            await task.value
        }
    }

    @Test("a recipe added to one store reaches the other; each step is recorded as the last sync while it runs; nothing stays pending")
    func recipeTravels() async throws {
        let directory = try TemporaryDirectory()
        let remote = directory.file("remote.sqlite")
        let a = try RecipesStore(url: directory.file("a.sqlite"))
        let b = try RecipesStore(url: directory.file("b.sqlite"))
        let liveA = try Running(a, remote: remote)
        let liveB = try Running(b, remote: remote)
        #expect(await liveA.wait { $0.contains(.caughtUp) }, "\(liveA.events)")
        #expect(await liveB.wait { $0.contains(.caughtUp) }, "\(liveB.events)")

        try a.container.newBook().add(RecipeDraft(name: "Live Soup", type: "Soup", ingredients: [IngredientInput(amount: "1", name: "leek")]))
        #expect(await waitUntil(timeout: 120, interval: .milliseconds(20)) { (try? b.container.newBook().recipe(named: "Live Soup")) != nil },
                "\(liveA.events) / \(liveB.events)")
        #expect(await liveB.wait { $0.contains { if case .pulled = $0 { true } else { false } } })

        // While it runs, the store's last sync is its latest step, as `recipes status` shows.
        let during = try #require(try SyncStatusRecord.stored(in: b.documentStore).lastSync)
        #expect(during.succeeded, "\(during)")
        #expect([.pullOnly, .pushOnly].contains(during.direction), "\(during)")
        #expect(during.steps.count == 1 && ["pull", "push"].contains(during.steps[0].name), "\(during.steps)")
        // A's push step has seen its own change: nothing of A is pending.
        #expect(await waitUntil(timeout: 120, interval: .milliseconds(20)) { (try? SyncStatusRecord.pendingChangeCount(of: a.documentStore)) == 0 })

        for live in [liveA, liveB] {
            await live.stop()
            #expect(live.events.last == .stopped(.cancelled), "\(live.events)")
        }
        #expect(liveA.events.contains { if case .pushed = $0 { true } else { false } }, "\(liveA.events)")
        // The locks were released: a one-shot sync runs.
        let after = try await b.sync(with: remote).run()
        #expect(after.succeeded, "\(after)")
    }
}
