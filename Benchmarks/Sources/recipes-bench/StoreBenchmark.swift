import ArgumentParser
import DocumentStore
import Foundation
import GRDB
import DocumentFormat

/// `recipes-bench store`: document inserts against raw SQLite inserts of the same JSON, and an
/// indexed query against the same query answered by a full scan.
struct StoreBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Insert N recipe documents (and the same JSON into a bare SQLite table), then time an indexed query and a scan.")

    @Option(name: .long, help: "Number of documents to insert.")
    var docs = 100_000

    @Option(name: .long, help: "Documents per write transaction.")
    var batch = 1_000

    @Option(name: .long, help: "Times each query is run; the median is reported.")
    var repeats = 5

    @Flag(name: .long, help: "Also print one JSON object with the figures on the last line.")
    var json = false

    func validate() throws {
        guard docs > 0, batch > 0, repeats > 0 else {
            throw ValidationError("--docs, --batch and --repeats must be positive")
        }
    }

    func run() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("recipes-bench-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let factory = RecipeDocumentFactory()

        // Our store, with the query's index declared up front so every write maintains it.
        let storePath = directory.appendingPathComponent("store.sqlite").path
        let store = try DocumentStore(url: URL(fileURLWithPath: storePath))
        try store.ensureIndex(fields: ["type", "name"], name: "recipes-by-type-name")
        var insertSeconds = 0.0
        for start in stride(from: 0, to: docs, by: batch) {
            let operations = (start..<min(start + batch, docs)).map { n in
                DocumentStore.WriteOperation.create(id: factory.id(n), body: factory.body(n), attachments: [])
            }
            let began = DispatchTime.now()
            try store.write(operations)
            insertSeconds += seconds(since: began)
        }
        let peakAfterInsert = PeakMemory.megabytes()

        // The floor: the same JSON as rows of a bare table, same file settings, same batches.
        let (rawSeconds, rawBytes) = try RawDocumentInsertAnchor.seconds(docs: docs, factory: factory, batch: batch, in: directory)

        // One query: equality on an indexed field, sort on another, limit 50.
        var query = Query(selector: ["type": .string(factory.typeID(7))], sort: [SortField(field: "name")], limit: 50)
        let (indexedMs, indexedResult) = try median(repeats) { try store.find(query) }
        query.useIndex = false
        let (scanMs, scanResult) = try median(max(1, min(repeats, 3))) { try store.find(query) }
        guard indexedResult.map(\.id) == scanResult.map(\.id), !indexedResult.isEmpty || docs < 8 else {
            throw ValidationError("the indexed query and the scan disagree: the benchmark cannot be trusted")
        }
        let storeBytes = fileSize(storePath)
        try store.close()
        let peak = PeakMemory.megabytes()

        let figures: [(String, Double)] = [
            ("docs", Double(docs)),
            ("insert_docs_per_s", Double(docs) / insertSeconds),
            ("raw_insert_docs_per_s", Double(docs) / rawSeconds),
            ("insert_slowdown", insertSeconds / rawSeconds),
            ("indexed_query_ms", indexedMs),
            ("scan_query_ms", scanMs),
            ("query_speedup", scanMs / indexedMs),
            ("peak_rss_after_insert_mb", peakAfterInsert ?? -1),
            ("peak_rss_mb", peak ?? -1),
            ("store_file_mb", Double(storeBytes) / 1_048_576),
            ("raw_file_mb", Double(rawBytes) / 1_048_576),
        ]
        printTable(figures)
        if json {
            let object = figures.map { name, value in
                "\"\(name)\":" + (name == "docs" ? String(docs) : String(format: "%.3f", value))
            }
            try BenchmarkRecord.emit(benchmark: "store", figures: "{" + object.joined(separator: ",") + "}")
        }
    }

    private func printTable(_ figures: [(String, Double)]) {
        let labels: [String: String] = [
            "docs": "documents", "insert_docs_per_s": "store inserts / s", "raw_insert_docs_per_s": "raw SQLite inserts / s",
            "insert_slowdown": "insert slowdown (store / raw)", "indexed_query_ms": "indexed query (ms, median)",
            "scan_query_ms": "same query by scan (ms, median)", "query_speedup": "index speed-up (scan / indexed)",
            "peak_rss_after_insert_mb": "peak RSS after inserts (MB)", "peak_rss_mb": "peak RSS, whole run (MB)",
            "store_file_mb": "store file (MB)", "raw_file_mb": "raw table file (MB)",
        ]
        let width = labels.values.map(\.count).max() ?? 30
        print("recipes-bench store — \(docs) recipe documents, batches of \(batch)")
        for (name, value) in figures {
            let label = labels[name] ?? name
            let text = name == "docs" ? String(docs) : String(format: "%.2f", value)
            print(label.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + text)
        }
    }

    private func median<T>(_ runs: Int, _ body: () throws -> T) throws -> (Double, T) {
        var times: [Double] = []
        var last: T?
        _ = try body()   // warm-up: statement cache and page cache
        for _ in 0..<runs {
            let began = DispatchTime.now()
            last = try body()
            times.append(seconds(since: began) * 1000)
        }
        times.sort()
        return (times[times.count / 2], last!)
    }

    private func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    private func fileSize(_ path: String) -> Int64 {
        var total: Int64 = 0
        for suffix in ["", "-wal"] {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix)
            total += (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        }
        return total
    }
}
