import Foundation
import Testing

/// Every other `recipes-bench` mode run once at a tiny size, so each keeps working from a fresh
/// clone: it exits 0 and its last line is the record of the benchmark it names. (`graph`,
/// `web`, `fuzz` and `serve-replicate` have suites of their own that check their figures.)
@Suite("recipes-bench modes, one tiny run each")
struct ModeSmokeTests {
    static let couchDB = ProcessInfo.processInfo.environment["COUCHDB_URL"] ?? ""
    static let sqliteShell = FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")
    static let needsRecipes: Comment = "needs the root package's debug build of recipes: run swift build at the root first"

    /// The modes that need only the debug `recipes`: each one's name and tiny options
    /// (`recipes` stands for the program's path).
    static let modes: [(String, [String])] = [
        ("store", ["--docs", "300", "--batch", "100", "--repeats", "1"]),
        ("sync", ["--docs", "40", "--attachment-bytes", "512", "--batch-size", "20", "--connections", "2", "--server", "recipes"]),
        ("live", ["--samples", "1", "--idle-seconds", "1", "--recipes-executable", "recipes"]),
        ("chaos", ["--syncs", "4", "--seed", "3", "--timeout", "60", "--recipes", "recipes"]),
        ("crash", ["--runs", "3", "--seed", "2", "--recipes", "10", "--recipes-executable", "recipes"]),
        ("load", ["--requests", "2", "--megabytes", "2", "--server", "recipes"]),
        ("http-clients", ["--docs", "30", "--attachment-bytes", "512", "--batch-size", "15", "--documents-per-request", "15",
                          "--connections", "2", "--rounds", "1", "--server", "recipes"]),
    ]

    @Test(.enabled(if: SmokeRun.hasRecipes, needsRecipes), arguments: modes)
    func runsOnceAtATinySize(_ name: String, _ options: [String]) throws {
        try Self.run(name, options)
    }

    /// `cli`, with encrypted notes (which `write-notes` makes), against its anchor, Debian's
    /// `sqlite3` shell.
    @Test(.enabled(if: SmokeRun.hasRecipes, needsRecipes), .enabled(if: sqliteShell, "needs the sqlite3 shell: apt-get install sqlite3"))
    func cliRunsOnceAtATinySize() throws {
        try Self.run("cli", ["--recipes", "30", "--runs", "1", "--encrypted-notes", "--recipes-executable", "recipes"])
    }

    /// `couch-replicator`: CouchDB's replicator pulling from the debug `recipes serve`.
    @Test(.enabled(if: SmokeRun.hasRecipes, needsRecipes), .enabled(if: !couchDB.isEmpty, "needs a live CouchDB: set COUCHDB_URL"))
    func couchReplicatorRunsOnceAtATinySize() throws {
        try Self.run("couch-replicator", ["--docs", "20", "--attachment-bytes", "512", "--server", "recipes"])
    }

    /// Runs mode `name` with `options` and `--json`: it exits 0 and its last line is its record.
    static func run(_ name: String, _ options: [String]) throws {
        let recipes = SmokeRun.recipes.resolvingSymlinksInPath().path
        let arguments = [name] + options.map { $0 == "recipes" ? recipes : $0 } + ["--json"]
        let (status, data) = try SmokeRun.bench(arguments)
        let text = String(decoding: data, as: UTF8.self)
        #expect(status == 0, "\(arguments.joined(separator: " ")): \(text)")
        let record = try SmokeRun.record(data)
        #expect(record["benchmark"] as? String == name, "\(text)")
        #expect(record["figures"] is [String: Any], "\(text)")
    }

    /// `report` turns records into the tables of BENCHMARKS.md.
    @Test func reportMakesTablesOfRecords() throws {
        let (status, data) = try SmokeRun.bench(["store", "--docs", "200", "--batch", "100", "--repeats", "1", "--json"])
        #expect(status == 0)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-bench-smoke-\(UUID().uuidString).txt")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (reportStatus, report) = try SmokeRun.bench(["report", file.path])
        let text = String(decoding: report, as: UTF8.self)
        #expect(reportStatus == 0, "\(text)")
        #expect(text.contains("store"), "\(text)")
    }
}
