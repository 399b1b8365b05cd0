import ArgumentParser
import DocumentStore
import Foundation
import Logging
import Replication
import DocumentFormat
#if canImport(Glibc)
import Glibc
#endif

/// `recipes-bench serve-replicate`: server-side replication in `recipes serve`
/// (`POST /_replicate` from a live CouchDB into the served process) timed next to our own
/// pull of the same CouchDB database into a local store, as `recipes sync` pulls.
struct ServeReplicateBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve-replicate",
        abstract: "Time `POST /_replicate` from CouchDB into a `recipes serve` process against our own pull of the same database.",
        discussion: CouchDBBenchmarkOptions.discussion)

    @OptionGroup var common: CouchDBBenchmarkOptions

    @Option(help: "Documents loaded into CouchDB.")
    var docs = 10_000

    @Option(help: "Rounds of both copies, which take turns going first (so neither always meets a colder CouchDB); the figures are medians.")
    var rounds = 3

    func validate() throws {
        guard docs > 0, (1...99).contains(rounds) else {
            throw ValidationError("--docs must be positive, --rounds 1 to 99")
        }
    }

    func run() async throws {
        let couch = try common.couchAdmin()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-serve-replicate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let executable = try common.recipesExecutable()
        let process = try ServerProcess(executable: executable, dataDirectory: work.appendingPathComponent("server"))
        defer { process.terminate() }
        let served = "http://127.0.0.1:\(process.port)"

        // The CouchDB database, loaded by our replicator from a generated store.
        let database = "bench-serve-replicate-\(UUID().uuidString.prefix(8).lowercased())"
        defer {
            let cleanup = couch
            Task { await cleanup.delete(database) }
        }
        _ = try await couch.request("PUT", couch.url(database))
        let source = try DocumentStore(url: work.appendingPathComponent("source.sqlite"))
        try RecipeDocumentFactory().write(docs, into: source, attachmentEvery: common.attachmentEvery, attachmentBytes: common.attachmentBytes)
        var logger = Logger(label: "recipes.bench.serve-replicate")
        logger.logLevel = .warning
        _ = try await Sync(store: source, remoteURL: couch.url(database), logger: logger).push()
        let loaded = try await couch.info(url: couch.url(database))
        log("CouchDB: \(loaded.docs) documents in \(database)")
        // The load leaves hundreds of megabytes of dirty pages (CouchDB's file, the source
        // store); flushed now, their writeback does not slow the first copy's fsyncs.
        sync()

        // `recipes serve` replicates from CouchDB by itself, each round into a new database;
        // our own pull, as `recipes sync --pull-only` runs it, into a new store.
        var serveTimes: [Double] = []
        var pullTimes: [Double] = []
        for round in 0..<rounds {
            let serveCopy = {
                let clock = ContinuousClock.now
                let reply = try await couch.request("POST", served + "/_replicate", body: [
                    "source": .string(couch.url(database)), "target": .string("pulled-\(round)"), "create_target": true,
                ])
                let seconds = SyncBenchmark.seconds(since: clock)
                let written = reply.objectValue?["history"]?.arrayValue?.first?.objectValue?["docs_written"]?.intValue ?? 0
                let copied = try await couch.info(url: served + "/pulled-\(round)")
                log("round \(round + 1): recipes serve POST /_replicate: \(written) written, \(copied.docs) documents in \(String(format: "%.2f", seconds)) s")
                guard copied.docs == loaded.docs else { throw ValidationError("incomplete: recipes serve holds \(copied.docs) of \(loaded.docs)") }
                serveTimes.append(seconds)
            }
            let ownPull = {
                let copy = try DocumentStore(url: work.appendingPathComponent("copy-\(round).sqlite"))
                let clock = ContinuousClock.now
                let pulled = try await Sync(store: copy, remoteURL: couch.url(database), logger: logger).pull()
                let seconds = SyncBenchmark.seconds(since: clock)
                log("round \(round + 1): our pull: \(pulled.docsWritten) documents in \(String(format: "%.2f", seconds)) s")
                guard pulled.docsWritten == loaded.docs else { throw ValidationError("incomplete: our pull wrote \(pulled.docsWritten) of \(loaded.docs)") }
                pullTimes.append(seconds)
            }
            if round % 2 == 0 {
                try await serveCopy()
                try await ownPull()
            } else {
                try await ownPull()
                try await serveCopy()
            }
        }
        let serveSeconds = serveTimes.median
        let pullSeconds = pullTimes.median

        let serveRate = Double(loaded.docs) / max(serveSeconds, 0.001)
        let pullRate = Double(loaded.docs) / max(pullSeconds, 0.001)
        let figures: [(String, String)] = [
            ("documents", "\(loaded.docs)"),
            ("rounds", "\(rounds)"),
            ("serve_replicate_s", String(format: "%.2f", serveSeconds)),
            ("serve_replicate_docs_per_s", String(format: "%.0f", serveRate)),
            ("our_pull_s", String(format: "%.2f", pullSeconds)),
            ("our_pull_docs_per_s", String(format: "%.0f", pullRate)),
            ("serve_replicate_vs_our_pull", String(format: "%.2f", serveRate / max(pullRate, 0.001))),
        ]
        for (name, value) in figures { print("\(name): \(value)") }
        if common.json { try BenchmarkRecord.emit(benchmark: "serve-replicate", figures: "{" + figures.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}") }
    }

    private func log(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
