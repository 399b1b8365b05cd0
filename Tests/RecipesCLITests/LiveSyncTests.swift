import Foundation
import Testing
import TestSupport

/// `recipes sync --live` as real processes through a real `recipes serve` on 127.0.0.1.
/// Timeouts are hang guards only; nothing here asserts a latency.
@Suite("recipes sync --live", .serialized)
struct LiveSyncTests {
    /// Starts `recipes sync --live --json` on a store and waits for its first `caughtUp`.
    static func startLive(_ sandbox: Sandbox, _ store: [String]) async throws -> RunningProcess {
        let live = try await sandbox.start(["sync", "--live", "--json"] + store)
        let ready = await live.waitForOutput(containing: "\"caughtUp\"", timeout: 180)
        try #require(ready != nil, "the live sync did not catch up: \(live.stdout) \(live.stderr)")
        return live
    }

    /// Polls `recipes list --json` on a store until it lists `name` (at most `timeout` seconds).
    static func waitForRecipe(_ name: String, _ sandbox: Sandbox, _ store: [String], timeout: TimeInterval = 180) async throws -> Bool {
        try await waitUntil(timeout: timeout, interval: .milliseconds(100)) {
            let listed = try await sandbox.run(["list", "--json"] + store)
            guard listed.status == 0, let list = try? listed.json() as? [[String: Any]] else { return false }
            return list.contains { $0["name"] as? String == name }
        }
    }

    /// The events a `--live --json` run printed, by name.
    static func events(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["event"] as? String
        }
    }

    @Test("a recipe added on one store shows up on another, both live through recipes serve; SIGINT exits 130")
    func addAppearsOnTheOtherStore() async throws {
        let sandbox = try Sandbox()
        try await withServer(ServedDatabase(in: sandbox)) { server in
            let a = ["--store", sandbox.path("a.sqlite"), "--no-samples", "--remote", server.url()]
            let b = ["--store", sandbox.path("b.sqlite"), "--no-samples", "--remote", server.url()]
            let liveA = try await Self.startLive(sandbox, a)
            let liveB = try await Self.startLive(sandbox, b)

            // Other commands keep working on a store under live sync; a second sync is refused.
            let added = try await sandbox.run(["add", "--name", "Live Soup", "--ingredient", "1|leek"] + a)
            #expect(added.status == 0, "\(added)")
            #expect(try await Self.waitForRecipe("Live Soup", sandbox, b), "B never got the recipe: \(liveA.stdout) \(liveB.stdout)")
            let second = try await sandbox.run(["sync"] + a)
            #expect(second.status == 75, "\(second)")
            // `status` in another process shows the live sync's last step while it runs.
            let during = try #require(try await sandbox.run(["status", "--json"] + b).json() as? [String: Any])
            let lastSync = try #require(during["lastSync"] as? [String: Any], "no last sync recorded during live sync: \(during)")
            #expect(lastSync["result"] as? String == "succeeded", "\(lastSync)")
            #expect(["pull-only", "push-only"].contains(lastSync["direction"] as? String), "\(lastSync)")

            // And the other way round, an edit this time.
            #expect(try await sandbox.run(["edit", "Live Soup", "--name", "Live Leek Soup"] + b).status == 0)
            #expect(try await Self.waitForRecipe("Live Leek Soup", sandbox, a))
            // The edit pulled into A is a local change until A's next push step has seen it
            // (the remote has it already); wait for that step before stopping, as on a loaded
            // machine the stop can come first.
            let settled = try await waitUntil(timeout: 60, interval: .milliseconds(100)) {
                let shown = try await sandbox.run(["status", "--json"] + a)
                return (try? shown.json() as? [String: Any])?["pendingChanges"] as? Int == 0
            }
            #expect(settled, "A's live sync never caught up with the edit it pulled: \(liveA.stdout)")

            for live in [liveA, liveB] {
                live.signal(SIGINT)
                #expect(await live.waitForExit(timeout: 60), "the live sync did not stop on SIGINT")
                let result = try await live.finish()
                #expect(result.status == 130, "\(result)")
                #expect(Self.events(result.stdout).last == "stopped", "\(result)")
            }
            #expect(Self.events(liveA.stdout).contains("pushed"))
            #expect(Self.events(liveB.stdout).contains("pulled"))
            // Everything was pushed: nothing pending, and a plain sync (the lock is free again) moves nothing.
            let status = try #require(try await sandbox.run(["status", "--json"] + a).json() as? [String: Any])
            #expect(status["pendingChanges"] as? Int == 0, "\(status)")
            let after = try await sandbox.run(["sync", "--json"] + b)
            #expect(after.status == 0, "\(after)")
            #expect((try after.json() as? [String: Any])?["pulled"] as? Int == 0, "\(after)")
        }
    }

    @Test("the server is killed and restarted on the same port: a recipe added meanwhile arrives, nothing is lost")
    func serverRestart() async throws {
        let sandbox = try Sandbox()
        var server = try await ServedDatabase(in: sandbox)
        let port = server.port
        let url = server.url()
        let a = ["--store", sandbox.path("a.sqlite"), "--no-samples", "--remote", url]
        let b = ["--store", sandbox.path("b.sqlite"), "--no-samples", "--remote", url]
        let liveA = try await Self.startLive(sandbox, a)
        let liveB = try await Self.startLive(sandbox, b)
        #expect(try await sandbox.run(["add", "--name", "Before The Crash"] + a).status == 0)
        #expect(try await Self.waitForRecipe("Before The Crash", sandbox, b))

        try await server.server.child.stop(SIGKILL)
        #expect(try await sandbox.run(["add", "--name", "While Offline"] + a).status == 0)
        let offline = await liveA.waitUntil(timeout: 30) { Self.events(liveA.stdout).contains("offline") }
        #expect(offline, "A never reported being offline: \(liveA.stdout)")
        server = try await ServedDatabase(in: sandbox, port: port)

        #expect(try await Self.waitForRecipe("While Offline", sandbox, b, timeout: 60), "\(liveA.stdout)\n\(liveB.stdout)")
        #expect(try await Self.waitForRecipe("Before The Crash", sandbox, b))
        for live in [liveA, liveB] {
            let events = Self.events(live.stdout)
            #expect(events.filter { $0 == "connected" }.count >= (live === liveA ? 2 : 1), "\(events)")
            live.signal(SIGTERM)
            let result = try await live.finish(timeout: 60)
            #expect(result.status == 143, "\(result)")
        }
        let names = try #require(try await sandbox.run(["list", "--json"] + b).json() as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(names.sorted() == ["Before The Crash", "While Offline"])
    }

    @Test("refused credentials stop a live sync with status 1 instead of retrying")
    func refusedCredentialsStop() async throws {
        let sandbox = try Sandbox()
        try await withServer(ServedDatabase(in: sandbox)) { server in
            let wrong = server.url().replacingOccurrences(of: ServedDatabase.password, with: "wrong-password")
            let live = try await sandbox.start(["sync", "--live", "--no-samples", "--store", sandbox.path("a.sqlite"), "--remote", wrong])
            let result = try await live.finish(timeout: 30)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("401") && !result.stderr.contains("wrong-password"), "\(result)")
            #expect(!result.stderr.contains("offline"), "\(result)")
        }
    }
}
