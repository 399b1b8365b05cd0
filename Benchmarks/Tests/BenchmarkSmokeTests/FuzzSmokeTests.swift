import Foundation
import Testing

/// A short `recipes-bench fuzz` run against the debug `recipes serve`, so the fuzz mode
/// itself keeps working; the long runs stay outside the test suite.
@Suite("recipes-bench fuzz smoke run")
struct FuzzSmokeTests {
    /// The package root's folder (this file is `Benchmarks/Tests/BenchmarkSmokeTests/…`).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The debug `recipes` the root package builds.
    static let recipes = root.appendingPathComponent(".build/debug/recipes")

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: recipes.path),
                   "needs the root package's debug build of recipes: run swift build at the root first"))
    func twoHundredHostileRequestsGetCouchDBShapedRepliesAndTheServerLives() throws {
        let recipes = Self.recipes.resolvingSymlinksInPath()
        // `swift test` builds the benchmark beside the test runner (`.build/debug/`).
        var folders = Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        if let runner = Bundle.main.executableURL { folders.insert(runner.deletingLastPathComponent(), at: 0) }
        folders.append(Self.root.appendingPathComponent("Benchmarks/.build/debug"))
        let bench = try #require(folders.lazy
            .map { $0.appendingPathComponent("recipes-bench") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }, "recipes-bench is built beside the tests")
        let process = Process()
        process.executableURL = bench
        process.arguments = ["fuzz", "--requests", "200", "--seed", "9", "--check-every", "50", "--feed-deadline", "0.5",
                             "--server", recipes.path, "--json"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
        let last = try #require(text.split(separator: "\n").last)
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
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
    }
}
