import ArgumentParser
import Foundation

/// `recipes-bench chaos`: syncs two stores through a fault-injecting proxy in front of a real
/// `recipes serve`, then gives each store ONE clean sync and checks that it and the server
/// then hold the same documents at the same revisions, and finally that both stores and the
/// server agree, with no recipe lost or duplicated.
struct ChaosBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chaos",
        abstract: "Sync two stores through a proxy that drops, fails, truncates and delays requests, then check they converge.")

    @Option(help: "Syncs through the proxy, alternating between the two stores.")
    var syncs = 200

    @Option(help: "Seed of the fault draws and of the edits between syncs.")
    var seed: UInt64 = 1

    @Option(help: "Percentage of requests that meet a fault.")
    var faultPercent = 20

    @Option(help: "Seconds a sync may run before it counts as hung and is killed.")
    var timeout = 120.0

    @Option(help: "Path of the `recipes` executable (default: next to this program).")
    var recipes: String?

    @Flag(help: "Print a JSON object with the figures as the last line.")
    var json = false

    private static let user = "chaos"
    private static let database = "chaos"

    func run() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-chaos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let executable = try RecipesExecutable.path(recipes, option: "--recipes")
        let password = "chaos-\(seed)-s3cret"
        let passwordFile = work.appendingPathComponent("password")
        try Data((password + "\n").utf8).write(to: passwordFile)
        let server = try ServerProcess(executable: executable, dataDirectory: work.appendingPathComponent("server"),
                                       access: ["--user", Self.user, "--password-file", passwordFile.path],
                                       errorLog: work.appendingPathComponent("server.log"))
        defer { server.terminate() }
        let proxy = try FaultProxy(upstreamPort: server.port, seed: seed, faultPercent: faultPercent)
        proxy.start()
        defer { proxy.stop() }
        log("server on port \(server.port), proxy on port \(proxy.port), \(faultPercent)% of requests faulted, seed \(seed)")

        var environment = ProcessInfo.processInfo.environment
        for key in ["RECIPES_REMOTE", "RECIPES_STORE", "RECIPES_NO_SAMPLES"] { environment[key] = nil }
        environment["XDG_CONFIG_HOME"] = work.appendingPathComponent("config").path
        environment["XDG_DATA_HOME"] = work.appendingPathComponent("data").path
        let runner = ChaosRunner(executable: executable, environment: environment, scratch: work, timeout: timeout)
        let stores = ["A": work.appendingPathComponent("A.sqlite").path, "B": work.appendingPathComponent("B.sqlite").path]

        // Each store seeds the samples on its first command and adds recipes of its own.
        var ledger = RecipeLedger()
        var counter = 0
        for label in ["A", "B"] {
            for _ in 0..<3 {
                counter += 1
                let name = "Chaos \(label)-\(counter)"
                try runner.local(stores[label]!, ["add", "--name", name, "--overview", "first", "--ingredient", "1 cup|water"])
                ledger.recordAdd(name: name, overview: "first", store: label)
            }
        }
        for label in ["A", "B"] {
            ledger.recordBaseline(try runner.recipes(in: stores[label]!).map(\.name))
        }

        var random = SplitMix64(seed: seed ^ 0x5EED_C4A0_5000_0000)
        var tally = ChaosTally()
        var localChanges = 0
        let proxied = "http://\(Self.user):\(password)@127.0.0.1:\(proxy.port)/\(Self.database)"
        let start = ContinuousClock.now
        for index in 0..<syncs {
            let label = index % 2 == 0 ? "A" : "B"
            let store = stores[label]!
            let roll = random.next() % 100
            if roll < 35 {
                counter += 1
                let name = "Chaos \(label)-\(counter)"
                try runner.local(store, ["add", "--name", name, "--overview", "added at \(index)", "--ingredient", "2 tbsp|oil"])
                ledger.recordAdd(name: name, overview: "added at \(index)", store: label)
                localChanges += 1
            } else if roll < 55, let mine = ledger.owned[label], !mine.isEmpty {
                let name = mine[Int(random.next() % UInt64(mine.count))]
                try runner.local(store, ["edit", name, "--overview", "edited at \(index)"])
                ledger.recordEdit(name: name, overview: "edited at \(index)")
                localChanges += 1
            } else if roll < 60, let mine = ledger.owned[label], mine.count > 1 {
                let name = mine[Int(random.next() % UInt64(mine.count))]
                try runner.local(store, ["delete", name])
                ledger.recordDelete(name: name, store: label)
                localChanges += 1
            }
            let outcome = try runner.run(["--store", store, "sync", "--remote", proxied])
            tally.record(outcome, password: password, label: "sync \(index + 1) (\(label))")
            if (index + 1) % 20 == 0 {
                log("\(index + 1) syncs: \(tally.succeeded) succeeded, \(tally.failedCleanly) failed cleanly, "
                    + "\(tally.crashed) crashed, \(tally.hung) hung, \(tally.unclean) unclean")
            }
        }
        let chaosSeconds = SyncBenchmark.seconds(since: start)
        proxy.stop()
        let faults = proxy.counts()

        // Converge, as issue #9 words the target: after ONE clean sync the syncing store and
        // the server must hold identical documents and revisions. A syncs straight with the
        // server and is compared with it at once; then B; then A once more (to pick up what B
        // pushed) and all three are compared. A store that is not identical after its sync
        // syncs again (at most 5 times), so the report can say how many it needed.
        let direct = "http://\(Self.user):\(password)@127.0.0.1:\(server.port)/\(Self.database)"
        let serverURL = URL(string: "http://127.0.0.1:\(server.port)/\(Self.database)")!
        var cleanSyncs: [String: Int] = [:]
        var firstSyncDivergent: [String] = []
        for label in ["A", "B"] {
            var needed = 0
            while needed < 5 {
                needed += 1
                let moved = try runner.cleanSync(stores[label]!, remote: direct)
                let storeSnapshot = try ReplicaSnapshot(storePath: stores[label]!)
                let serverNow = try await ReplicaSnapshot(database: serverURL, user: Self.user, password: password)
                let differences = storeSnapshot.differences(from: serverNow)
                if needed == 1, !differences.isEmpty {
                    firstSyncDivergent += differences.map { "\(label):\($0) store \(storeSnapshot.documents[$0].map { "\($0)" } ?? "-")"
                        + " server \(serverNow.documents[$0].map { "\($0)" } ?? "-")" }
                }
                log("clean sync \(needed) of \(label): moved \(moved), \(differences.count) documents differ from the server")
                if differences.isEmpty { break }
            }
            cleanSyncs[label] = needed
        }
        let finalMoved = try runner.cleanSync(stores["A"]!, remote: direct)
        log("final clean sync of A: moved \(finalMoved)")

        let serverSnapshot = try await ReplicaSnapshot(database: serverURL, user: Self.user, password: password)
        var divergent: [String] = []
        var lost: Set<String> = []
        var duplicated: Set<String> = []
        var resurrected: Set<String> = []
        var stale: Set<String> = []
        var liveRecipes = 0
        for label in ["A", "B"] {
            let snapshot = try ReplicaSnapshot(storePath: stores[label]!)
            divergent += snapshot.differences(from: serverSnapshot).map { "\(label):\($0)" }
            let listed = try runner.recipes(in: stores[label]!)
            liveRecipes = listed.count
            let check = ledger.check(listed)
            lost.formUnion(check.lost)
            duplicated.formUnion(check.duplicated)
            resurrected.formUnion(check.resurrected)
            stale.formUnion(check.stale)
        }
        let serverAlive = server.process.isRunning
        let oneSyncEach = cleanSyncs.values.allSatisfy { $0 == 1 }
        let converged = oneSyncEach && divergent.isEmpty && lost.isEmpty && duplicated.isEmpty && resurrected.isEmpty && stale.isEmpty

        for (message, count) in tally.errors.sorted(by: { $0.value > $1.value }).prefix(8) { log("  \(count)× \(message)") }
        for incident in tally.incidents.prefix(10) { log("  ! \(incident)") }
        if !firstSyncDivergent.isEmpty { log("  differing after a first clean sync: \(firstSyncDivergent.prefix(10).joined(separator: "; "))") }
        if !divergent.isEmpty { log("  divergent documents: \(divergent.prefix(10).joined(separator: ", "))") }
        for (what, names) in [("lost", lost), ("duplicated", duplicated), ("resurrected", resurrected), ("stale", stale)] where !names.isEmpty {
            log("  \(what): \(names.sorted().prefix(10).joined(separator: ", "))")
        }

        let faultFigures = FaultKind.allCases.map { ($0.rawValue, faults[$0] ?? 0) }
        let injected = faultFigures.filter { $0.0 != FaultKind.pass.rawValue }.map(\.1).reduce(0, +)
        print("chaos: \(tally.runs) syncs (\(localChanges) local changes between them) in \(Int(chaosSeconds)) s: "
              + "\(tally.succeeded) succeeded, \(tally.failedCleanly) failed cleanly, \(tally.crashed) crashed, "
              + "\(tally.hung) hung, \(tally.unclean) unclean, \(tally.passwordLeaks) leaked the password; longest \(String(format: "%.1f", tally.longestSeconds)) s")
        print("faults: \(injected) of \(faultFigures.map(\.1).reduce(0, +)) requests: "
              + faultFigures.filter { $0.0 != FaultKind.pass.rawValue }.map { "\($0.0) \($0.1)" }.joined(separator: ", "))
        print("final: \(converged ? "converged" : "DIVERGED"): A identical to the server after \(cleanSyncs["A"]!) clean sync(s), "
              + "B after \(cleanSyncs["B"]!), then A once more (moved \(finalMoved)): \(serverSnapshot.documents.count) documents, "
              + "\(liveRecipes) recipes; \(divergent.count) divergent, \(lost.count) lost, \(duplicated.count) duplicated, "
              + "\(resurrected.count) resurrected, \(stale.count) stale; server \(serverAlive ? "up" : "DOWN")")
        if json {
            var fields: [String] = [
                "\"syncs\":\(tally.runs)", "\"succeeded\":\(tally.succeeded)", "\"failed_cleanly\":\(tally.failedCleanly)",
                "\"crashed\":\(tally.crashed)", "\"hung\":\(tally.hung)", "\"unclean\":\(tally.unclean)",
                "\"password_leaks\":\(tally.passwordLeaks)", "\"local_changes\":\(localChanges)",
                "\"seconds\":\(Int(chaosSeconds))", "\"seed\":\(seed)", "\"fault_percent\":\(faultPercent)",
            ]
            fields.append("\"faults\":{" + faultFigures.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
            fields += [
                "\"clean_syncs_a\":\(cleanSyncs["A"]!)", "\"clean_syncs_b\":\(cleanSyncs["B"]!)",
                "\"first_sync_divergent\":\(firstSyncDivergent.count)", "\"final_moved\":\(finalMoved)", "\"documents\":\(serverSnapshot.documents.count)",
                "\"recipes\":\(liveRecipes)", "\"divergent\":\(divergent.count)", "\"lost\":\(lost.count)",
                "\"duplicated\":\(duplicated.count)", "\"resurrected\":\(resurrected.count)", "\"stale\":\(stale.count)",
                "\"server_alive\":\(serverAlive)", "\"converged\":\(converged)",
            ]
            try BenchmarkRecord.emit(benchmark: "chaos", figures: "{" + fields.joined(separator: ",") + "}")
        }
        if tally.crashed + tally.hung + tally.unclean + tally.passwordLeaks > 0 || !converged || !serverAlive {
            throw ExitCode(1)
        }
    }

    private func log(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
