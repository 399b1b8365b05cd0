import ArgumentParser
import Foundation
import RecipesKit

/// `recipes-bench cli`: what a user of the `recipes` program feels on a large book. It
/// writes a sample set of `--recipes` recipes (8 types, 8 ingredients each), imports it
/// with the real `recipes` binary, then runs each browse command as a fresh process several
/// times and reports the median wall time and the largest peak RSS of each.
struct CLIBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cli",
        abstract: "Time the `recipes` commands as fresh processes on a generated book of recipes.")

    @Option(help: "Recipes in the generated book (each with 8 ingredients; 8 recipe types).")
    var recipes = 20_000

    @Option(help: "Runs of each command; the median is reported.")
    var runs = 5

    @Option(help: "Path of the `recipes` executable (default: next to this program).")
    var recipesExecutable: String?

    @Option(help: ArgumentHelp("Keep the generated set and store in this folder instead of a temporary one.", valueName: "dir"))
    var keep: String?

    @Flag(help: "Then give every recipe encrypted notes and time `show` and `list` with them against a copy without (interleaved).")
    var encryptedNotes = false

    @Flag(help: "Print one JSON object with every figure on the last line.")
    var json = false

    /// One timed command.
    struct Figure: Encodable {
        var command: String
        var medianMilliseconds: Double
        var peakRSSMegabytes: Double
    }

    func run() async throws {
        guard recipes > 0, runs > 0 else { throw ValidationError("--recipes and --runs must be positive") }
        let executable = try RecipesExecutable.path(recipesExecutable, option: "--recipes-executable")
        let work = keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("recipes-cli-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm", ".sync.lock"] {
            try? FileManager.default.removeItem(at: work.appendingPathComponent("book.sqlite" + suffix))
        }
        defer { if keep == nil { try? FileManager.default.removeItem(at: work) } }
        let setURL = work.appendingPathComponent("big.json")
        try ScaleSampleSet.write(recipes: recipes, to: setURL)
        let store = work.appendingPathComponent("book.sqlite").path
        let objects = recipes * 9 + ScaleSampleSet.typeNames.count
        log("generated \(recipes) recipes (\(objects) objects)")

        let speedBefore = Self.calibration()
        var figures: [Figure] = []
        let firstImport = try ChildProcess.run(executable, ["import", setURL.path, "--store", store])
        let importRate = Double(objects) / (firstImport.milliseconds / 1000)
        figures.append(Figure(command: "import (first)", medianMilliseconds: firstImport.milliseconds, peakRSSMegabytes: firstImport.peakRSSMegabytes))
        let secondImport = try ChildProcess.run(executable, ["import", setURL.path, "--store", store])
        figures.append(Figure(command: "import (again, no change)", medianMilliseconds: secondImport.milliseconds, peakRSSMegabytes: secondImport.peakRSSMegabytes))
        log(String(format: "import: %.0f objects/s", importRate))

        let middle = String(format: "Scale Recipe %06d", recipes / 2)
        let commands: [(String, [String])] = [
            ("list --type Soup", ["list", "--type", "Soup"]),
            ("list --type Soup --limit 50", ["list", "--type", "Soup", "--limit", "50"]),
            ("list --json", ["list", "--json"]),
            ("list (table)", ["list"]),
            ("list --limit 50 --offset half", ["list", "--limit", "50", "--offset", String(recipes / 2)]),
            ("show", ["show", middle]),
            ("show (ignoring case)", ["show", middle.uppercased()]),
            ("list --search zanzibar", ["list", "--search", "zanzibar"]),
            ("types", ["types"]),
            ("status", ["status"]),
        ]
        for (label, arguments) in commands {
            figures.append(try timed(label, runs: runs) { _ in try ChildProcess.run(executable, arguments + ["--store", store]) })
        }
        figures.append(try timed("add", runs: runs) { run in
            try ChildProcess.run(executable, ["add", "--name", "Bench Added \(run)", "--type", "Soup",
                                              "--ingredient", "1|water", "--store", store])
        })

        if encryptedNotes {
            figures += try encryptedNotesFigures(executable: executable, store: store, work: work, showing: middle)
        }

        // Cold start inside this process: open the store (model, schema check, indexes) and
        // run its first fetch, a name look-up ignoring case and accents. It comes after every
        // child process, since a spawned child starts from its parent's peak RSS.
        let openStart = ContinuousClock.now
        let opened = try RecipesStore(url: URL(fileURLWithPath: store))
        _ = try opened.container.book.recipe(named: middle.lowercased())
        let coldStart = SyncBenchmark.seconds(since: openStart) * 1000
        figures.append(Figure(command: "open + first fetch (in process)", medianMilliseconds: coldStart, peakRSSMegabytes: 0))
        log(String(format: "open + first fetch: %.1f ms", coldStart))

        let speedAfter = Self.calibration()
        let nameWidth = figures.map(\.command.count).max() ?? 10
        print("recipes-bench cli: \(recipes) recipes, \(objects) objects, median of \(runs) fresh processes")
        print("command".padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "   ms      peak RSS MB")
        for figure in figures {
            print(figure.command.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                + String(format: "  %8.1f  %8.1f", figure.medianMilliseconds, figure.peakRSSMegabytes))
        }
        print(String(format: "import rate: %.0f objects/s", importRate))
        print(String(format: "machine speed (a fixed CPU task, lower is faster): %.0f ms before, %.0f ms after", speedBefore, speedAfter))
        if json {
            struct Report: Encodable {
                var recipes: Int
                var objects: Int
                var importObjectsPerSecond: Double
                var calibrationMilliseconds: [Double]
                var figures: [Figure]
            }
            let report = Report(recipes: recipes, objects: objects, importObjectsPerSecond: importRate,
                                calibrationMilliseconds: [speedBefore, speedAfter], figures: figures)
            try BenchmarkRecord.emit(benchmark: "cli", encoding: report)
        }
    }

    /// Milliseconds this machine takes, best of three, for a fixed CPU-bound task (sorting a
    /// million seeded random integers): printed next to the figures, because this machine's
    /// speed drifts by up to twofold within minutes and runs are only comparable with it.
    static func calibration() -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            var random = SplitMix64(seed: 42)
            var values = (0..<1_000_000).map { _ in random.next() }
            let start = ContinuousClock.now
            values.sort()
            best = min(best, SyncBenchmark.seconds(since: start) * 1000)
            precondition(values.count == 1_000_000)
        }
        return best
    }

    /// Runs `body` `runs` times; the median time and the largest peak RSS.
    private func timed(_ label: String, runs: Int, _ body: (Int) throws -> ChildProcess.Outcome) throws -> Figure {
        var times: [Double] = []
        var peak = 0.0
        for run in 0..<runs {
            let outcome = try body(run)
            times.append(outcome.milliseconds)
            peak = max(peak, outcome.peakRSSMegabytes)
        }
        let median = times.median
        log(String(format: "%@: %.1f ms", label, median))
        return Figure(command: label, medianMilliseconds: median, peakRSSMegabytes: peak)
    }

    func log(_ text: String) {
        FileHandle.standardError.write(Data("recipes-bench cli: \(text)\n".utf8))
    }
}
