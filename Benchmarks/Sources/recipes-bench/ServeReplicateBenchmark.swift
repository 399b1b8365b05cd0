import ArgumentParser
import DocumentStore
import Foundation
import Logging
import Replication
import DocumentFormat

/// `recipes-bench serve-replicate`: server-side replication in `recipes serve`
/// (`POST /_replicate` from a live CouchDB into the served process) timed next to our own
/// pull of the same CouchDB database into a local store, as `recipes sync` pulls.
struct ServeReplicateBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve-replicate",
        abstract: "Time `POST /_replicate` from CouchDB into a `recipes serve` process against our own pull of the same database.",
        discussion: "Needs a live CouchDB 3.x: --couchdb URL, else the COUCHDB_URL environment variable (http://ADMIN:PASSWORD@HOST:PORT).")

    @Option(help: "The CouchDB server, with an administrator's credentials (default: $COUCHDB_URL).")
    var couchdb: String?

    @Option(help: "Documents loaded into CouchDB.")
    var docs = 10_000

    @Option(help: "One document in this many carries an attachment.")
    var attachmentEvery = 10

    @Option(help: "Attachment size in bytes.")
    var attachmentBytes = 20 * 1024

    @Option(help: "Path of the `recipes` executable (default: next to this program).")
    var server: String?

    @Flag(help: "Print a JSON object with the figures as the last line.")
    var json = false

    func validate() throws {
        guard docs > 0, attachmentEvery > 0, attachmentBytes >= 0 else {
            throw ValidationError("--docs and --attachment-every must be positive, --attachment-bytes 0 or more")
        }
    }

    func run() async throws {
        guard let couchText = couchdb ?? ProcessInfo.processInfo.environment["COUCHDB_URL"], !couchText.isEmpty else {
            throw ValidationError("no CouchDB: pass --couchdb http://ADMIN:PASSWORD@HOST:PORT or set COUCHDB_URL")
        }
        let couch = try CouchAdmin(couchText)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-serve-replicate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let executable = try RecipesExecutable.path(server, option: "--server")
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
        let source = try DocumentStore(path: work.appendingPathComponent("source.sqlite").path)
        try RecipeDocumentFactory().write(docs, into: source, attachmentEvery: attachmentEvery, attachmentBytes: attachmentBytes)
        var logger = Logger(label: "recipes.bench.serve-replicate")
        logger.logLevel = .warning
        _ = try await Sync(store: source, remoteURL: couch.url(database), logger: logger).push()
        let loaded = try await couch.info(url: couch.url(database))
        log("CouchDB: \(loaded.docs) documents in \(database)")

        // `recipes serve` replicates from CouchDB by itself.
        var clock = ContinuousClock.now
        let reply = try await couch.request("POST", served + "/_replicate", body: [
            "source": .string(couch.url(database)), "target": "pulled", "create_target": true,
        ])
        let serveSeconds = SyncBenchmark.seconds(since: clock)
        let written = reply.objectValue?["history"]?.arrayValue?.first?.objectValue?["docs_written"]?.intValue ?? 0
        let copied = try await couch.info(url: served + "/pulled")
        log("recipes serve POST /_replicate: \(written) written, \(copied.docs) documents in \(String(format: "%.2f", serveSeconds)) s")

        // Our own pull, as `recipes sync --pull-only` runs it, from the same database.
        let copy = try DocumentStore(path: work.appendingPathComponent("copy.sqlite").path)
        clock = ContinuousClock.now
        let pulled = try await Sync(store: copy, remoteURL: couch.url(database), logger: logger).pull()
        let pullSeconds = SyncBenchmark.seconds(since: clock)
        log("our pull: \(pulled.docsWritten) documents in \(String(format: "%.2f", pullSeconds)) s")

        let serveRate = Double(copied.docs) / max(serveSeconds, 0.001)
        let pullRate = Double(pulled.docsWritten) / max(pullSeconds, 0.001)
        let figures: [(String, String)] = [
            ("documents", "\(loaded.docs)"),
            ("serve_replicate_s", String(format: "%.2f", serveSeconds)),
            ("serve_replicate_docs_per_s", String(format: "%.0f", serveRate)),
            ("our_pull_s", String(format: "%.2f", pullSeconds)),
            ("our_pull_docs_per_s", String(format: "%.0f", pullRate)),
            ("serve_replicate_vs_our_pull", String(format: "%.2f", serveRate / max(pullRate, 0.001))),
        ]
        for (name, value) in figures { print("\(name): \(value)") }
        if json { try BenchmarkRecord.emit(benchmark: "serve-replicate", figures: "{" + figures.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}") }
        guard copied.docs == loaded.docs, pulled.docsWritten == loaded.docs else {
            throw ValidationError("incomplete: recipes serve holds \(copied.docs) of \(loaded.docs), our pull wrote \(pulled.docsWritten)")
        }
    }

    private func log(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
