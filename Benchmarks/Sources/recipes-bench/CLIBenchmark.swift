import ArgumentParser
import Foundation
import RecipesKit

/// `recipes-bench cli`: what a user of the `recipes` program feels on a large book. It
/// writes a sample set of `--recipes` recipes (8 types, 8 ingredients each), imports it
/// with the real `recipes` binary, then runs each browse command as a fresh process several
/// times and reports the median wall time and the largest peak RSS of each. Beside each
/// command it times, interleaved in the same run, the nearest thing Debian's `sqlite3` shell
/// does on the same file (`SQLiteShellAnchor`), and beside `import` the raw SQLite insert
/// rate (`RawInsertAnchor`), and reports the ratios.
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

    /// One timed command, with its anchor when it has one.
    struct Figure: Encodable {
        var command: String
        var medianMilliseconds: Double
        var peakRSSMegabytes: Double
        /// What the anchor did (`sqlite3: …`, or the raw insert rate).
        var anchor: String? = nil
        /// The anchor's median wall time in the same run.
        var anchorMilliseconds: Double? = nil
        /// The command's time over its anchor's (for `import`: the anchor's rate over the
        /// import's, so that lower is better for every ratio).
        var ratio: Double? = nil
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
        let raw = try RawInsertAnchor.rowsPerSecond(copying: store, into: work)
        figures[figures.count - 1].anchor = String(format: "raw SQLite inserts: %.0f rows/s", raw.perSecond)
        figures[figures.count - 1].ratio = raw.perSecond / importRate
        let secondImport = try ChildProcess.run(executable, ["import", setURL.path, "--store", store])
        figures.append(Figure(command: "import (again, no change)", medianMilliseconds: secondImport.milliseconds, peakRSSMegabytes: secondImport.peakRSSMegabytes))
        log(String(format: "import: %.0f objects/s; raw SQLite: %.0f rows/s (%d rows), %.3f× of it", importRate, raw.perSecond, raw.rows, importRate / raw.perSecond))

        let middle = String(format: "Scale Recipe %06d", recipes / 2)
        guard SQLiteShellAnchor.isAvailable else { throw ValidationError("needs the sqlite3 shell at \(SQLiteShellAnchor.shell) (apt-get install sqlite3)") }
        let sqlite = try SQLiteShellAnchor.Catalogue(store: store, middleRecipeName: middle)
        let commands: [(String, [String], SQLiteShellAnchor)] = [
            ("--help", ["--help"], sqlite.selectOne),
            ("list --type Soup", ["list", "--type", "Soup"], sqlite.soupWithIngredients()),
            ("list --type Soup --limit 50", ["list", "--type", "Soup", "--limit", "50"], sqlite.soupWithIngredients(limit: 50)),
            ("list --json", ["list", "--json"], sqlite.allLiveBodies),
            ("list (table)", ["list"], sqlite.allRecipeBodies),
            ("list --limit 50 --offset half", ["list", "--limit", "50", "--offset", String(recipes / 2)], sqlite.oneIndexedRow),
            ("show", ["show", middle], sqlite.oneIndexedRow),
            ("show (ignoring case)", ["show", middle.uppercased()], sqlite.oneIndexedRow),
            ("list --search zanzibar", ["list", "--search", "zanzibar"], sqlite.oneIndexedRow),
            ("types", ["types"], sqlite.oneIndexedRow),
            ("status", ["status"], sqlite.oneIndexedRow),
        ]
        for (label, arguments, anchor) in commands {
            let command = arguments == ["--help"] ? arguments : arguments + ["--store", store]
            figures.append(try timed(label, runs: runs, anchor: anchor, on: store) { _ in try ChildProcess.run(executable, command) })
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
        _ = try opened.container.newBook().recipe(named: middle.lowercased())
        let coldStart = SyncBenchmark.seconds(since: openStart) * 1000
        figures.append(Figure(command: "open + first fetch (in process)", medianMilliseconds: coldStart, peakRSSMegabytes: 0))
        log(String(format: "open + first fetch: %.1f ms", coldStart))

        let speedAfter = Self.calibration()
        let nameWidth = figures.map(\.command.count).max() ?? 10
        print("recipes-bench cli: \(recipes) recipes, \(objects) objects, median of \(runs) fresh processes")
        print("command".padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "   ms      peak RSS MB  anchor ms  ratio  anchor")
        for figure in figures {
            var line = figure.command.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                + String(format: "  %8.1f  %8.1f", figure.medianMilliseconds, figure.peakRSSMegabytes)
            line += figure.anchorMilliseconds.map { String(format: "  %9.1f", $0) } ?? String(repeating: " ", count: 11)
            line += figure.ratio.map { String(format: "  %5.2f", $0) } ?? String(repeating: " ", count: 7)
            if let anchor = figure.anchor { line += "  " + anchor }
            print(line)
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

    /// Runs `body` `runs` times, each run followed by one of `anchor` on `store` when given;
    /// the median times, their ratio and the largest peak RSS of `body`.
    private func timed(_ label: String, runs: Int, anchor: SQLiteShellAnchor? = nil, on store: String = "",
                       _ body: (Int) throws -> ChildProcess.Outcome) throws -> Figure {
        var times: [Double] = []
        var anchorTimes: [Double] = []
        var peak = 0.0
        for run in 0..<runs {
            let outcome = try body(run)
            times.append(outcome.milliseconds)
            peak = max(peak, outcome.peakRSSMegabytes)
            if let anchor { anchorTimes.append(try anchor.run(on: store).milliseconds) }
        }
        let median = times.median
        var figure = Figure(command: label, medianMilliseconds: median, peakRSSMegabytes: peak)
        if let anchor {
            figure.anchor = anchor.label
            figure.anchorMilliseconds = anchorTimes.median
            figure.ratio = median / max(anchorTimes.median, 0.001)
            log(String(format: "%@: %.1f ms; %@: %.1f ms (%.2f×)", label, median, anchor.label, anchorTimes.median, figure.ratio ?? 0))
        } else {
            log(String(format: "%@: %.1f ms", label, median))
        }
        return figure
    }

    func log(_ text: String) {
        FileHandle.standardError.write(Data("recipes-bench cli: \(text)\n".utf8))
    }
}
