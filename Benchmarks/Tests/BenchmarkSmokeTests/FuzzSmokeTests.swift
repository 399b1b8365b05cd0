import Foundation
import Testing

/// A short `recipes-bench fuzz` run against the debug `recipes serve`, so the fuzz mode
/// itself keeps working; the long runs stay outside the test suite.
@Suite("recipes-bench fuzz smoke run")
struct FuzzSmokeTests {
    @Test(.enabled(if: SmokeRun.hasRecipes,
                   "needs the root package's debug build of recipes: run swift build at the root first"))
    func twoHundredHostileRequestsGetCouchDBShapedRepliesAndTheServerLives() throws {
        let recipes = SmokeRun.recipes.resolvingSymlinksInPath()
        let bench = try SmokeRun.bench()
        let (status, data) = try SmokeRun.bench(["fuzz", "--requests", "200", "--seed", "9", "--check-every", "50", "--feed-deadline", "0.5",
                                                 "--server", recipes.path, "--json"])
        let text = String(decoding: data, as: UTF8.self)
        #expect(status == 0, "\(text)")
        let record = try SmokeRun.record(data)
        // The last line is the run's record: its figures, and where and when they were taken.
        #expect(record["benchmark"] as? String == "fuzz")
        #expect((record["machine"] as? [String: Any])?["cores"] as? Int ?? 0 > 0)
        #expect((record["commit"] as? String).map { !$0.isEmpty } == true)
        let figures = try #require(record["figures"] as? [String: Any])
        #expect(figures["requests"] as? Int == 200)
        #expect(figures["malformed"] as? Int == 0, "\(text)")
        #expect(figures["crashes"] as? Int == 0)
        #expect(figures["serverAlive"] as? Bool == true)
        #expect(figures["livenessChecks"] as? Int == 4)
        let replies = try #require(figures["replies"] as? [String: Int])
        #expect(replies["2xx", default: 0] > 0 && replies["4xx", default: 0] > 0, "\(replies)")
        // Broken framing (a body cut short, bad chunks) is the client's fault: 400, never 500.
        #expect(replies["5xx", default: 0] == 0, "\(replies)")
        #expect(text.contains("fuzz: 200 requests (seed 9)"))

        // `recipes-bench report` turns the saved run into BENCHMARKS.md's table, keeping the
        // hand-written part of the file before its marker.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let saved = folder.appendingPathComponent("fuzz.txt")
        try data.write(to: saved)
        let markdown = folder.appendingPathComponent("BENCHMARKS.md")
        try "# Benchmarks\n\nHow to run them.\n".write(to: markdown, atomically: true, encoding: .utf8)
        // Runs `recipes-bench report` on one saved record into `markdown`; what it wrote.
        func report(_ record: URL) throws -> String {
            let process = Process()
            process.executableURL = bench
            process.arguments = ["report", record.path, "--output", markdown.path]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            return try String(contentsOf: markdown, encoding: .utf8)
        }
        let written = try report(saved)
        #expect(written.hasPrefix("# Benchmarks\n\nHow to run them.\n\n<!-- Figures below are generated"))
        #expect(written.contains("## fuzz\n"))
        #expect(written.contains("`recipes-bench fuzz --requests 200 --seed 9"))
        #expect(written.contains("| requests | 200 |"))
        #expect(written.contains("| replies.5xx | 0 |") || !written.contains("replies.5xx"))

        // A password in a record's arguments (`--couchdb URL`) is never shown.
        var withPassword = record
        withPassword["arguments"] = ["sync", "--couchdb", "http://admin:hunter2@127.0.0.1:5984", "--json"]
        let leaky = folder.appendingPathComponent("sync.txt")
        try JSONSerialization.data(withJSONObject: withPassword).write(to: leaky)
        let maskedText = try report(leaky)
        #expect(!maskedText.contains("hunter2") && maskedText.contains("http://admin:***@127.0.0.1:5984"), "\(maskedText)")
    }
}
