import ArgumentParser
import DocumentStore
import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
import DocumentFormat
#endif

/// `recipes-bench crash`: kills the real `recipes` program with SIGKILL at random points of
/// `import`, `add` and `sync`, and checks after every kill what a user depends on: the store
/// (and the sync target) pass SQLite's `integrity_check` and open; an import is all or
/// nothing; an `add` that reported success is never lost; and after the kills one clean
/// sync leaves the store and its remote with the same documents at the same revisions.
struct CrashBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash",
        abstract: "Kill `recipes import`, `add` and `sync` at random points and check every store survives.")

    @Option(help: "Kills to make.")
    var runs = 100

    @Option(help: "Seed of the random choices (operation and moment of each kill).")
    var seed: UInt64 = 1

    @Option(help: "Recipes in the sample set each import brings (9 objects each).")
    var recipes = 1_000

    @Option(help: "Path of the `recipes` executable (default: next to this program).")
    var recipesExecutable: String?

    @Flag(help: "Print one JSON object with the figures on the last line.")
    var json = false

    /// The operations killed.
    enum Operation: String, CaseIterable, Encodable {
        case importSet = "import"
        case add
        case sync
    }

    /// What the run found.
    struct Report: Encodable {
        var runs = 0
        var killed: [String: Int] = [:]
        var finishedBeforeKill: [String: Int] = [:]
        var integrityFailures = 0
        var openFailures = 0
        var partialImports = 0
        var lostAdds = 0
        var converged = false
        var documents = 0
    }

    func run() async throws {
        guard runs > 0, recipes > 0 else { throw ValidationError("--runs and --recipes must be positive") }
        let executable = try RecipesExecutable.path(recipesExecutable, option: "--recipes-executable")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-crash-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let setURL = work.appendingPathComponent("set.json")
        try ScaleSampleSet.write(recipes: recipes, to: setURL)
        let store = work.appendingPathComponent("book.sqlite").path
        let remote = work.appendingPathComponent("remote.sqlite").path
        let scratch = work.appendingPathComponent("scratch.sqlite").path

        // How long each operation runs when left alone: the window a kill is drawn from.
        var window: [Operation: Double] = [:]
        window[.importSet] = try ChildProcess.run(executable, ["import", setURL.path, "--store", scratch]).milliseconds / 1000
        _ = try ChildProcess.run(executable, ["add", "--name", "Crash Warm-up", "--store", store])
        window[.add] = try ChildProcess.run(executable, ["add", "--name", "Crash Warm-up 2", "--store", store]).milliseconds / 1000
        window[.sync] = try ChildProcess.run(executable, ["sync", "--remote", remote, "--store", store]).milliseconds / 1000
        log(String(format: "windows: import %.2f s, add %.2f s, sync %.2f s", window[.importSet]!, window[.add]!, window[.sync]!))

        var random = SplitMix64(seed: seed)
        var report = Report()
        var imported = false
        var committedAdds: [String] = ["Crash Warm-up", "Crash Warm-up 2"]
        for index in 0..<runs {
            let operation = Operation.allCases.randomElement(using: &random)!
            let delay = Double.random(in: 0...(window[operation]! * 1.2), using: &random)
            let before = try recipeCount(store)
            let name = "Crash Added \(index)"
            let arguments: [String]
            switch operation {
            case .importSet: arguments = ["import", setURL.path, "--store", store]
            case .add: arguments = ["add", "--name", name, "--type", "Soup", "--ingredient", "1|water", "--store", store]
            case .sync: arguments = ["sync", "--remote", remote, "--store", store]
            }
            let command = ([executable] + arguments).joined(separator: " ")
            let pid = try ChildProcess.spawn(executable, arguments)
            try await Task.sleep(for: .milliseconds(Int(delay * 1000)))
            kill(pid, SIGKILL)
            let (status, _) = try ChildProcess.wait(pid, command: command)
            let finished = status & 0x7f == 0 && (status >> 8) & 0xff == 0
            if finished {
                report.finishedBeforeKill[operation.rawValue, default: 0] += 1
            } else {
                report.killed[operation.rawValue, default: 0] += 1
            }
            report.runs += 1

            for path in operation == .sync ? [store, remote] : [store] where FileManager.default.fileExists(atPath: path) {
                if try !passesIntegrityCheck(path) {
                    report.integrityFailures += 1
                    log("run \(index): \(operation.rawValue) left \(path) failing integrity_check")
                }
            }
            guard let after = try? recipeCount(store),
                  (try? ChildProcess.run(executable, ["status", "--store", store])) != nil else {
                report.openFailures += 1
                log("run \(index): the store does not open after a killed \(operation.rawValue)")
                continue
            }
            switch operation {
            case .importSet:
                // All or nothing: none of the set's missing recipes, or every one of them.
                let missing = imported ? 0 : recipes
                if after != before && after != before + missing {
                    report.partialImports += 1
                    log("run \(index): a killed import left \(after - before) of \(missing) recipes")
                }
                if after == before + missing { imported = true }
            case .add:
                if finished { committedAdds.append(name) }
                if after != before && after != before + 1 { report.partialImports += 1 }
            case .sync:
                break
            }
        }

        // One clean sync, then both sides must hold the same documents at the same revisions
        // and every add that reported success must be there.
        _ = try ChildProcess.run(executable, ["sync", "--remote", remote, "--store", store])
        _ = try ChildProcess.run(executable, ["sync", "--remote", remote, "--store", store])
        let local = try winners(store)
        let remoteWinners = try winners(remote)
        report.converged = local == remoteWinners
        report.documents = local.count
        let names = try recipeNames(store)
        report.lostAdds = committedAdds.filter { !names.contains($0) }.count

        let killed = report.killed.values.reduce(0, +)
        print("recipes-bench crash: \(report.runs) runs (seed \(seed)), \(killed) killed mid-run "
            + "(import \(report.killed["import"] ?? 0), add \(report.killed["add"] ?? 0), sync \(report.killed["sync"] ?? 0)), "
            + "\(report.runs - killed) finished first; integrity failures \(report.integrityFailures), "
            + "stores not opening \(report.openFailures), partial imports or adds \(report.partialImports), "
            + "lost adds \(report.lostAdds) of \(committedAdds.count); after one clean sync "
            + (report.converged ? "store and remote agree on all \(report.documents) documents" : "STORE AND REMOTE DIFFER"))
        if json {
            try BenchmarkRecord.emit(benchmark: "crash", encoding: report)
        }
        if report.integrityFailures + report.openFailures + report.partialImports + report.lostAdds > 0 || !report.converged {
            throw ExitCode(1)
        }
    }

    /// Whether SQLite's full integrity check of the file says `ok`.
    private func passesIntegrityCheck(_ path: String) throws -> Bool {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } == ["ok"]
    }

    /// Live recipe documents in the store file.
    private func recipeCount(_ path: String) throws -> Int {
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        return try DocumentStore(url: URL(fileURLWithPath: path)).count(selector: ["CDTISEntityName": "Recipe"])
    }

    /// The names of the store's live recipes.
    private func recipeNames(_ path: String) throws -> Set<String> {
        var query = Query(selector: ["CDTISEntityName": "Recipe"])
        query.fields = ["name"]
        return Set(try DocumentStore(url: URL(fileURLWithPath: path)).find(query).compactMap { $0.body["name"]?.stringValue })
    }

    /// Every live document's winning revision, by ID.
    private func winners(_ path: String) throws -> [String: String] {
        let documents = try DocumentStore(url: URL(fileURLWithPath: path)).allDocuments(AllDocsOptions())
        return Dictionary(uniqueKeysWithValues: documents.map { ($0.id, $0.rev.description) })
    }

    private func log(_ message: String) {
        FileHandle.standardError.write(Data("recipes-bench crash: \(message)\n".utf8))
    }
}
