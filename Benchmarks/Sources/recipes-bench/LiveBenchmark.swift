import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `recipes-bench live`: what live sync and live fetches feel like, with real processes.
///
/// Two stores follow one `recipes serve` with `recipes sync --live --json`; each sample adds
/// a recipe on one with `recipes add` and times until the other has pulled it. Then the idle
/// CPU of both live syncs and of the server; then the server is killed, a recipe is added
/// while it is down, and it is started again on the same port: the time until the other
/// store has the recipe. Last, `recipes list --watch`: the time from an `add` in another
/// process to the recipe's appearance in the watcher's output, and the idle watcher's CPU.
struct LiveBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Time live sync through `recipes serve` and `recipes list --watch` with real processes.")

    @Option(help: "Recipes added (and timed) in each part.")
    var samples = 7

    @Option(help: "Seconds over which idle CPU use is measured.")
    var idleSeconds = 20.0

    @Option(help: "Path of the `recipes` executable (default: next to this program).")
    var recipesExecutable: String?

    @Flag(help: "Print one JSON object with every figure on the last line.")
    var json = false

    /// Milliseconds: median, fastest and slowest of a sample.
    struct Spread: Encodable {
        var median: Double
        var min: Double
        var max: Double

        init(_ values: [Double]) {
            let sorted = values.sorted()
            median = sorted.median
            min = sorted.first ?? 0
            max = sorted.last ?? 0
        }

        var text: String { String(format: "median %.0f ms (%.0f–%.0f)", median, min, max) }
    }

    /// Every figure of a run.
    struct Report: Encodable {
        var samples: Int
        var liveLatencyFromAddStartMs: Spread
        var liveLatencyFromAddExitMs: Spread
        var idleSeconds: Double
        var liveIdleCPUPercent: [String: Double]
        var serverIdleCPUPercent: Double
        var offlineReportedWithin2s: Bool
        var catchUpAfterRestartMs: Double
        var liveSigintExitCodes: [Int32?]
        var watchLatencyFromAddStartMs: Spread
        var watchLatencyFromAddExitMs: Spread
        var watchIdleCPUPercent: Double
        var watchSigintExitCode: Int32?
    }

    func run() throws {
        guard samples > 0, idleSeconds > 0 else { throw ValidationError("--samples and --idle-seconds must be positive") }
        let executable = try RecipesExecutable.path(recipesExecutable, option: "--recipes-executable")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-live-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        // The children see no configuration, remote or samples of the user running this.
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RECIPES_") && !$0.key.hasPrefix("XDG_") }
        environment["HOME"] = work.path
        environment["RECIPES_NO_SAMPLES"] = "1"

        var report = try liveSync(executable, work: work, environment: environment)
        try watch(executable, work: work, environment: environment, into: &report)

        print("recipes-bench live: \(samples) samples")
        print("live sync, add on A until B pulled it: \(report.liveLatencyFromAddStartMs.text) from the add's start, "
              + "\(report.liveLatencyFromAddExitMs.text) from its exit")
        print(String(format: "idle CPU over %.0f s: live syncs %@; server %.2f%% of one core", idleSeconds,
                     report.liveIdleCPUPercent.sorted { $0.key < $1.key }.map { String(format: "%@ %.2f%%", $0.key, $0.value) }
                         .joined(separator: ", "), report.serverIdleCPUPercent))
        print("server killed: offline reported within 2 s: \(report.offlineReportedWithin2s); "
              + String(format: "B had the recipe added meanwhile %.0f ms after the server listened again", report.catchUpAfterRestartMs))
        print("live syncs' exit status after SIGINT: \(report.liveSigintExitCodes.map { $0.map(String.init) ?? "none" })")
        print("list --watch, add until shown: \(report.watchLatencyFromAddStartMs.text) from the add's start, "
              + "\(report.watchLatencyFromAddExitMs.text) from its exit")
        print(String(format: "idle watcher: %.2f%% of one core; exit status after SIGINT: %@", report.watchIdleCPUPercent,
                     report.watchSigintExitCode.map(String.init) ?? "none"))
        if json {
            try BenchmarkRecord.emit(benchmark: "live", encoding: report)
        }
    }

    /// The live-sync part; the watch figures are filled in later.
    private func liveSync(_ executable: String, work: URL, environment: [String: String]) throws -> Report {
        let data = work.appendingPathComponent("server")
        var server = try ServerProcess(executable: executable, dataDirectory: data)
        let port = server.port
        let remote = "http://127.0.0.1:\(port)/recipes"
        func store(_ name: String) -> [String] {
            ["--store", work.appendingPathComponent("\(name).sqlite").path, "--no-samples", "--remote", remote]
        }
        let live = try ["a", "b"].map { name in
            try FollowedProcess(executable, ["sync", "--live", "--json"] + store(name),
                                output: work.appendingPathComponent("\(name).events"), environment: environment)
        }
        defer { for process in live { _ = process.stop(SIGKILL) } }
        for process in live where !FollowedProcess.wait(timeout: 60, { process.events.contains("caughtUp") }) {
            throw ValidationError("a live sync never caught up: \(process.text)")
        }
        let b = live[1]
        var fromStart: [Double] = [], fromExit: [Double] = []
        for index in 0..<samples {
            usleep(1_000_000)  // both sides settle
            let before = b.events.filter { $0 == "pulled" }.count
            let started = ContinuousClock.now
            _ = try ChildProcess.run(executable, ["add", "--name", "Latency \(index)"] + store("a"))
            let exited = ContinuousClock.now
            guard FollowedProcess.wait(timeout: 20, { b.events.filter { $0 == "pulled" }.count > before }) else {
                throw ValidationError("B never pulled recipe \(index): \(b.text)")
            }
            fromStart.append(SyncBenchmark.seconds(since: started) * 1000)
            fromExit.append(SyncBenchmark.seconds(since: exited) * 1000)
        }

        usleep(2_000_000)
        let cpuBefore = live.map(\.cpuSeconds), serverBefore = FollowedProcess.cpuSeconds(of: server.pid)
        usleep(UInt32(idleSeconds * 1_000_000))
        let idle = Dictionary(uniqueKeysWithValues: zip(["a", "b"], zip(live, cpuBefore).map { ($0.cpuSeconds - $1) / idleSeconds * 100 }))
        let serverIdle = (FollowedProcess.cpuSeconds(of: server.pid) - serverBefore) / idleSeconds * 100

        // The server dies and comes back on the same port and data 2 s later; a recipe added
        // meanwhile on A must reach B.
        server.kill()
        let before = b.events.filter { $0 == "pulled" }.count
        _ = try ChildProcess.run(executable, ["add", "--name", "While Offline"] + store("a"))
        usleep(2_000_000)
        let offline = live.allSatisfy { $0.events.contains("offline") }
        server = try ServerProcess(executable: executable, dataDirectory: data, port: port)
        defer { server.terminate() }
        let restarted = ContinuousClock.now
        guard FollowedProcess.wait(timeout: 60, { b.events.filter { $0 == "pulled" }.count > before }) else {
            throw ValidationError("B never pulled after the server came back: \(b.text)")
        }
        let catchUp = SyncBenchmark.seconds(since: restarted) * 1000
        let codes = live.map { $0.stop(SIGINT) }
        let empty = Spread([])
        return Report(samples: samples, liveLatencyFromAddStartMs: Spread(fromStart), liveLatencyFromAddExitMs: Spread(fromExit),
                      idleSeconds: idleSeconds, liveIdleCPUPercent: idle, serverIdleCPUPercent: serverIdle,
                      offlineReportedWithin2s: offline, catchUpAfterRestartMs: catchUp, liveSigintExitCodes: codes,
                      watchLatencyFromAddStartMs: empty, watchLatencyFromAddExitMs: empty, watchIdleCPUPercent: 0,
                      watchSigintExitCode: nil)
    }

    /// The `list --watch` part.
    private func watch(_ executable: String, work: URL, environment: [String: String], into report: inout Report) throws {
        let store = ["--store", work.appendingPathComponent("watched.sqlite").path, "--no-samples"]
        _ = try ChildProcess.run(executable, ["add", "--name", "Already There"] + store)
        let watcher = try FollowedProcess(executable, ["list", "--watch"] + store,
                                          output: work.appendingPathComponent("watch.out"), environment: environment)
        defer { _ = watcher.stop(SIGKILL) }
        guard FollowedProcess.wait(timeout: 30, { watcher.text.contains("Already There") }) else {
            throw ValidationError("the watcher never listed the book: \(watcher.text)")
        }
        var random = SplitMix64(seed: 7)
        var fromStart: [Double] = [], fromExit: [Double] = []
        for index in 0..<samples {
            // Adds land at different points of the watcher's polling cycle.
            usleep(300_000 + UInt32(random.next() % 300_000))
            let name = "Watched \(index)"
            let started = ContinuousClock.now
            _ = try ChildProcess.run(executable, ["add", "--name", name] + store)
            let exited = ContinuousClock.now
            guard FollowedProcess.wait(timeout: 30, { watcher.text.contains(name) }) else {
                throw ValidationError("the watcher never showed \(name)")
            }
            fromStart.append(SyncBenchmark.seconds(since: started) * 1000)
            fromExit.append(SyncBenchmark.seconds(since: exited) * 1000)
        }
        usleep(2_000_000)
        let cpuBefore = watcher.cpuSeconds
        usleep(UInt32(idleSeconds * 1_000_000))
        report.watchIdleCPUPercent = (watcher.cpuSeconds - cpuBefore) / idleSeconds * 100
        report.watchLatencyFromAddStartMs = Spread(fromStart)
        report.watchLatencyFromAddExitMs = Spread(fromExit)
        report.watchSigintExitCode = watcher.stop(SIGINT)
    }
}
