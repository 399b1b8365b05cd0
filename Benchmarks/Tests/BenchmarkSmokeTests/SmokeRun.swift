import Foundation
import Testing

/// Where the smoke tests find the programs they run, and how they run one.
enum SmokeRun {
    /// The package root's folder (this file is `Benchmarks/Tests/BenchmarkSmokeTests/…`).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The debug `recipes` the root package builds.
    static let recipes = root.appendingPathComponent(".build/debug/recipes")
    /// Whether the root package's debug `recipes` is there.
    static var hasRecipes: Bool { FileManager.default.isExecutableFile(atPath: recipes.path) }

    /// The `recipes-bench` that `swift test` built beside the test runner (`.build/debug/`).
    static func bench() throws -> URL {
        var folders = Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        if let runner = Bundle.main.executableURL { folders.insert(runner.deletingLastPathComponent(), at: 0) }
        folders.append(root.appendingPathComponent("Benchmarks/.build/debug"))
        return try #require(folders.lazy
            .map { $0.appendingPathComponent("recipes-bench") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }, "recipes-bench is built beside the tests")
    }

    /// Runs `recipes-bench` with `arguments`; its exit status and its stdout (stderr dropped).
    static func bench(_ arguments: [String]) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = try bench()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    /// The record a `--json` run printed as its last line.
    static func record(_ output: Data) throws -> [String: Any] {
        let last = try #require(String(decoding: output, as: UTF8.self).split(separator: "\n").last)
        return try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
    }
}
