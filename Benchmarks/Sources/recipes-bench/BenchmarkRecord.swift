import ArgumentParser
import DocumentFormat
import Foundation
import RecipesKit
import HTTPSupport

/// One benchmark run as `--json` prints it on its last line: the benchmark's own figures
/// wrapped with where and when they were taken (machine, date, commit, arguments), so a
/// figure read later, or on another machine, says what it can be compared with.
/// `recipes-bench report` turns a set of these into `BENCHMARKS.md`'s tables.
struct BenchmarkRecord {
    /// The subcommand that ran (`sync`, `cli`, …).
    var benchmark: String
    /// The command line after `recipes-bench`.
    var arguments: [String]
    /// When the run ended, ISO 8601 in UTC.
    var date: String
    /// The repository's commit (`git describe --always --dirty`), or `unknown` outside a clone.
    var commit: String
    /// Cores, processor model, memory, kernel and the load average when the run ended.
    var machine: JSONObject
    /// The benchmark's own figures, as it reports them.
    var figures: JSONValue

    /// The record as one JSON object.
    var json: JSONValue {
        ["benchmark": .string(benchmark), "arguments": .array(arguments.map { .string($0) }), "date": .string(date),
         "commit": .string(commit), "machine": .object(machine), "figures": figures]
    }

    /// Reads a record printed by ``emit(benchmark:figures:)``.
    init(json: JSONValue) throws {
        guard let object = json.objectValue, let benchmark = object["benchmark"]?.stringValue,
              let figures = object["figures"] else {
            throw ValidationError("not a recipes-bench record: it needs `benchmark` and `figures`")
        }
        self.benchmark = benchmark
        arguments = object["arguments"]?.arrayValue?.compactMap(\.stringValue) ?? []
        date = object["date"]?.stringValue ?? "unknown"
        commit = object["commit"]?.stringValue ?? "unknown"
        machine = object["machine"]?.objectValue ?? [:]
        self.figures = figures
    }

    private init(benchmark: String, figures: JSONValue) {
        self.benchmark = benchmark
        // Arguments may hold a server URL with its password (`--couchdb`): never recorded.
        arguments = CommandLine.arguments.dropFirst().map { CredentialMask.masked($0) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        date = formatter.string(from: Date())
        commit = Self.commit()
        machine = Self.machine()
        self.figures = figures
    }

    /// Prints the record of a run whose figures are `figures` (the JSON text or bytes the
    /// benchmark built) as one line on standard output.
    static func emit(benchmark: String, figures: String) throws {
        try emit(benchmark: benchmark, figures: Data(figures.utf8))
    }

    /// Prints the record of a run whose figures are the JSON `figures`.
    static func emit(benchmark: String, figures: Data) throws {
        let record = BenchmarkRecord(benchmark: benchmark, figures: try JSONValue.parse(figures))
        print(JSONWriter.couchDB.string(record.json))
    }

    /// Prints the record of a run whose figures are an `Encodable` report.
    static func emit(benchmark: String, encoding report: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try emit(benchmark: benchmark, figures: try encoder.encode(report))
    }

    /// The commit of the clone the program runs in (the working directory's), `-dirty` when
    /// it has uncommitted changes; `RECIPES_BENCH_COMMIT` overrides it.
    private static func commit() -> String {
        if let given = ProcessInfo.processInfo.environment["RECIPES_BENCH_COMMIT"], !given.isEmpty { return given }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "describe", "--always", "--dirty", "--abbrev=10"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "unknown" }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return process.terminationStatus == 0 && !text.isEmpty ? text : "unknown"
    }

    /// What the figures depend on: cores, processor, memory, kernel, and the load average
    /// (a busy machine's figures are slower, whatever the code does).
    private static func machine() -> JSONObject {
        let info = ProcessInfo.processInfo
        var machine: JSONObject = [
            "cores": .int(Int64(info.activeProcessorCount)),
            "memoryGiB": .double((Double(info.physicalMemory) / 1_073_741_824 * 10).rounded() / 10),
            "system": .string(info.operatingSystemVersionString),
        ]
        if let cpu = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = cpu.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let name = line.split(separator: ":", maxSplits: 1).last {
            machine["processor"] = .string(name.trimmingCharacters(in: .whitespaces))
        }
        if let load = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) {
            machine["loadAverage"] = .string(load.split(separator: " ").prefix(3).joined(separator: " "))
        }
        return machine
    }
}
