import DocumentStore
import Foundation
import RecipesKit
import Testing
import InteropSupport
import TestSupport

@Suite("recipes sync and status (local-to-local)", .serialized)
struct SyncCommandTests {
    @Test("sync without a remote says how to configure one")
    func noRemote() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.run(["sync", "--store", sandbox.path("a.sqlite"), "--no-samples"])
        #expect(result.status != 0 && result.stderr.contains("no remote configured"), "\(result)")
    }

    @Test("a recipe added on one machine reaches another through a remote store file; status reports the sync")
    func localToLocal() async throws {
        let sandbox = try Sandbox()
        let remote = sandbox.path("remote.sqlite")
        let a = ["--store", sandbox.path("a.sqlite"), "--no-samples", "--remote", remote]
        let b = ["--store", sandbox.path("b.sqlite"), "--no-samples", "--remote", remote]
        #expect(try await sandbox.run(["add", "--name", "Pho", "--ingredient", "1 l|broth"] + a).status == 0)
        let pending = try #require(try await sandbox.run(["status", "--json"] + a).json() as? [String: Any])
        #expect((pending["pendingChanges"] as? Int ?? 0) > 0)
        #expect(pending["lastSync"] is NSNull)

        let pushed = try await sandbox.run(["sync", "--json"] + a)
        #expect(pushed.status == 0, "\(pushed)")
        let report = try #require(try pushed.json() as? [String: Any])
        #expect(report["result"] as? String == "succeeded" && (report["pushed"] as? Int ?? 0) >= 3)
        #expect((report["steps"] as? [[String: Any]])?.map { $0["name"] as? String } == ["pull", "resolve", "push", "refresh"])
        #expect(pushed.stderr.contains("push: done"))

        let pulled = try await sandbox.run(["sync"] + b)
        #expect(pulled.status == 0 && pulled.stdout.contains("sync succeeded: pulled"), "\(pulled)")
        let shown = try #require(try await sandbox.run(["show", "Pho", "--json"] + b).json() as? [String: Any])
        #expect((shown["ingredients"] as? [[String: Any]])?.first?["name"] as? String == "broth")

        let status = try #require(try await sandbox.run(["status", "--json"] + a).json() as? [String: Any])
        #expect(Set(status.keys) == ["store", "storeSource", "remote", "remoteSource", "counts", "documents", "pendingChanges", "conflicts", "seeding", "refused", "lastSync"])
        #expect(status["pendingChanges"] as? Int == 0 && status["conflicts"] as? Int == 0)
        #expect((status["lastSync"] as? [String: Any])?["result"] as? String == "succeeded")
        #expect((status["counts"] as? [String: Any])?["recipes"] as? Int == 1)
        #expect(try await sandbox.run(["status"] + a).stdout.contains("last sync:"))
    }

    @Test("--pull-only and --push-only run one half")
    func halves() async throws {
        let sandbox = try Sandbox()
        let remote = sandbox.path("remote.sqlite")
        let a = ["--store", sandbox.path("a.sqlite"), "--no-samples", "--remote", remote]
        #expect(try await sandbox.run(["add", "--name", "Pho"] + a).status == 0)
        let push = try #require(try await sandbox.run(["sync", "--push-only", "--json"] + a).json() as? [String: Any])
        #expect((push["steps"] as? [[String: Any]])?.map { $0["name"] as? String } == ["push"])
        let pull = try #require(try await sandbox.run(["sync", "--pull-only", "--json"] + a).json() as? [String: Any])
        #expect((pull["steps"] as? [[String: Any]])?.map { $0["name"] as? String } == ["pull", "resolve", "refresh"])
        #expect(try await sandbox.run(["sync", "--pull-only", "--push-only"] + a).status != 0)
    }

    @Test("a sync of a store whose lock is held reports \"sync already running\"; --wait waits for it")
    func lockHeld() async throws {
        let sandbox = try Sandbox()
        let storePath = sandbox.path("a.sqlite")
        let a = ["--store", storePath, "--no-samples", "--remote", sandbox.path("remote.sqlite")]
        #expect(try await sandbox.run(["list"] + a).status == 0)
        let lock = try SyncLock.tryAcquire(forStore: URL(fileURLWithPath: storePath))
        let refused = try await sandbox.run(["sync"] + a)
        #expect(refused.status == 75 && refused.stderr.contains("sync already running"), "\(refused)")
        let waiting = try await sandbox.start(["sync", "--wait"] + a)
        // A negative check: while the lock is held, `--wait` must not finish within a bounded
        // window; then the release is the event it waits for.
        try await observationWindow(.milliseconds(800))
        #expect(waiting.isRunning)
        lock.release()
        let waited = try await waiting.finish()
        #expect(waited.status == 0, "\(waited)")
    }

    @Test("two syncs started together: one runs, the other runs after it or reports that one is running")
    func twoTogether() async throws {
        let sandbox = try Sandbox()
        let a = ["--store", sandbox.path("a.sqlite"), "--no-samples", "--remote", sandbox.path("remote.sqlite")]
        #expect(try await sandbox.run(["import", CLIBinary.packageRoot.appendingPathComponent("SampleData").path] + a).status == 0)
        let first = try await sandbox.start(["sync"] + a)
        let second = try await sandbox.start(["sync"] + a)
        let results = [try await first.finish(), try await second.finish()]
        #expect(results.contains { $0.status == 0 }, "\(results)")
        for result in results where result.status != 0 {
            #expect(result.status == 75 && result.stderr.contains("sync already running"), "\(result)")
        }
    }

    @Test("an unreachable remote fails the sync with the reason; nothing local is lost")
    func unreachable() async throws {
        let sandbox = try Sandbox()
        let a = ["--store", sandbox.path("a.sqlite"), "--no-samples"]
        #expect(try await sandbox.run(["add", "--name", "Pho"] + a).status == 0)
        let result = try await sandbox.run(["sync", "--remote", "http://user:secret@127.0.0.1:9/recipes"] + a)
        #expect(result.status != 0 && result.stderr.contains("pull failed"), "\(result)")
        #expect(!result.stderr.contains("secret") && !result.stdout.contains("secret"))
        #expect((try await sandbox.run(["list", "--json"] + a).json() as? [[String: Any]])?.count == 1)
        let status = try #require(try await sandbox.run(["status", "--json", "--remote", "http://user:secret@127.0.0.1:9/recipes"] + a).json() as? [String: Any])
        #expect((status["remote"] as? String)?.contains("***") == true)
        #expect((status["lastSync"] as? [String: Any])?["result"] as? String == "failed")
        #expect((status["pendingChanges"] as? Int ?? 0) > 0)
    }

    @Test("the same recipe edited on two machines ends the same on both after syncing")
    func concurrentEdits() async throws {
        let sandbox = try Sandbox()
        let remote = sandbox.path("remote.sqlite")
        let a = ["--store", sandbox.path("a.sqlite"), "--no-samples", "--remote", remote]
        let b = ["--store", sandbox.path("b.sqlite"), "--no-samples", "--remote", remote]
        #expect(try await sandbox.run(["add", "--name", "Pho", "--overview", "start", "--prep-time", "1 hour"] + a).status == 0)
        #expect(try await sandbox.run(["sync"] + a).status == 0)
        #expect(try await sandbox.run(["sync"] + b).status == 0)
        #expect(try await sandbox.run(["edit", "Pho", "--overview", "from A"] + a).status == 0)
        #expect(try await sandbox.run(["edit", "Pho", "--overview", "from B", "--prep-time", "2 hours"] + b).status == 0)
        #expect(try await sandbox.run(["sync"] + a).status == 0)
        let resolving = try #require(try await sandbox.run(["sync", "--json"] + b).json() as? [String: Any])
        #expect(resolving["conflictsResolved"] as? Int == 1)
        #expect(try await sandbox.run(["sync"] + a).status == 0)
        let onA = try await sandbox.run(["show", "Pho", "--json"] + a).stdout
        let onB = try await sandbox.run(["show", "Pho", "--json"] + b).stdout
        #expect(onA == onB)
        for store in [a, b] {
            let status = try #require(try await sandbox.run(["status", "--json"] + store).json() as? [String: Any])
            #expect(status["conflicts"] as? Int == 0)
        }
    }

    @Test("--prefer local keeps this machine's values for the conflicting properties, on both machines")
    func preferLocal() async throws {
        let sandbox = try Sandbox()
        let remote = sandbox.path("remote.sqlite")
        let a = ["--store", sandbox.path("a.sqlite"), "--no-samples", "--remote", remote]
        let b = ["--store", sandbox.path("b.sqlite"), "--no-samples", "--remote", remote]
        #expect(try await sandbox.run(["add", "--name", "Pho", "--overview", "start"] + a).status == 0)
        #expect(try await sandbox.run(["sync"] + a).status == 0)
        #expect(try await sandbox.run(["sync"] + b).status == 0)
        #expect(try await sandbox.run(["edit", "Pho", "--overview", "from A"] + a).status == 0)
        #expect(try await sandbox.run(["edit", "Pho", "--overview", "from B"] + b).status == 0)
        #expect(try await sandbox.run(["sync"] + a).status == 0)
        #expect(try await sandbox.run(["sync", "--prefer", "local"] + b).status == 0)
        #expect(try await sandbox.run(["sync"] + a).status == 0)
        for store in [a, b] {
            let shown = try #require(try await sandbox.run(["show", "Pho", "--json"] + store).json() as? [String: Any])
            #expect(shown["overview"] as? String == "from B")
        }
    }

    @Test("an interrupted sync stops, says it was cancelled and exits 130; the next sync finishes")
    func interrupted() async throws {
        let sandbox = try Sandbox()
        let a = ["--store", sandbox.path("a.sqlite"), "--no-samples"]
        #expect(try await sandbox.run(["add", "--name", "Pho"] + a).status == 0)
        // A remote that takes the sync's first request and never answers: once the proxy holds
        // it, the sync is inside its pull and stays there, however busy the machine is.
        let silent = try SilentListener()
        let proxy = try UploadHoldingProxy(upstreamPort: silent.port, holdAfter: 0)
        defer { proxy.stop() }
        let running = try await sandbox.start(["sync", "--remote", "http://127.0.0.1:\(proxy.port)/recipes"] + a)
        let held = await running.waitUntil(timeout: 120) { proxy.isHolding || !running.isRunning }
        try #require(held && running.isRunning,
                     "waited for the sync to send its first request to the remote; \(running.child.termination.map { "it ended with \($0)" } ?? "it still runs, no request came"); stderr: \(running.stderr)")
        running.signal(SIGINT)
        let result = try await running.finish()
        #expect(result.status == 130 && result.stderr.contains("cancelled"), "\(result)")
        let status = try #require(try await sandbox.run(["status", "--json"] + a).json() as? [String: Any])
        #expect((status["lastSync"] as? [String: Any])?["result"] as? String == "cancelled")
        #expect((status["counts"] as? [String: Any])?["recipes"] as? Int == 1)
        let remote = sandbox.path("remote.sqlite")
        #expect(try await sandbox.run(["sync", "--remote", remote] + a).status == 0)
    }

    @Test("a first run whose remote cannot be reached does not seed, goes on, and seeds on a later run")
    func firstRunOffline() async throws {
        let sandbox = try Sandbox()
        let store = ["--store", sandbox.path("a.sqlite")]
        let offline = try await sandbox.run(["list", "--json", "--remote", "http://127.0.0.1:9/recipes"] + store)
        #expect(offline.status == 0 && offline.stderr.contains("not seeding now"), "\(offline)")
        #expect(offline.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        let later = try await sandbox.run(["list", "--json"] + store)
        #expect((try later.json() as? [[String: Any]])?.count == 14, "\(later)")
    }
}
