import ArgumentParser
import DocumentStore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import Replication
import DocumentFormat

/// `recipes-bench couch-replicator`: CouchDB's own replicator (on a live CouchDB) pulling a
/// book from a real `recipes serve` process, timed next to our replicator pulling the same
/// from the same server, next to CouchDB replicating the same documents from itself, and
/// next to our replicator making that same copy from CouchDB.
struct CouchReplicatorBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "couch-replicator",
        abstract: "Time CouchDB's replicator pulling from `recipes serve`, against our own pull, CouchDB replicating from itself, and our pull from CouchDB.",
        discussion: CouchDBBenchmarkOptions.discussion)

    @OptionGroup var common: CouchDBBenchmarkOptions

    @Option(help: "Documents besides the sample recipes.")
    var docs = 10_000

    func validate() throws {
        guard docs >= 0 else {
            throw ValidationError("--docs must be 0 or more")
        }
    }

    func run() async throws {
        let couch = try common.couchAdmin()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-couch-replicator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let executable = try common.recipesExecutable()
        let process = try ServerProcess(executable: executable, dataDirectory: work.appendingPathComponent("server"))
        defer { process.terminate() }
        let served = "http://127.0.0.1:\(process.port)/bench"

        // The book: the sample recipes with their images (seeded and pushed by `recipes`
        // itself), then the generated documents pushed by our replicator.
        let seed = Process()
        seed.executableURL = URL(fileURLWithPath: executable)
        seed.arguments = ["list", "--json", "--store", work.appendingPathComponent("samples.sqlite").path, "--remote", served]
        seed.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RECIPES_") }
        seed.standardOutput = FileHandle.nullDevice
        try seed.run()
        seed.waitUntilExit()
        guard seed.terminationStatus == 0 else { throw ValidationError("`recipes list --remote \(served)` failed to seed the server") }
        let source = try DocumentStore(url: work.appendingPathComponent("source.sqlite"))
        try RecipeDocumentFactory().write(docs, into: source, attachmentEvery: common.attachmentEvery, attachmentBytes: common.attachmentBytes,
                                          idPrefix: "bench-")
        var logger = Logger(label: "recipes.bench.couch-replicator")
        logger.logLevel = .warning
        _ = try await Sync(store: source, remoteURL: served, logger: logger).push()
        let onServer = try await couch.info(url: served)
        log("recipes serve on port \(process.port): \(onServer.docs) documents, \(onServer.deleted) deleted")

        // CouchDB's replicator pulls everything from `recipes serve`, then again.
        let target = "bench-pull-\(UUID().uuidString.prefix(8).lowercased())"
        let anchorTarget = target + "-anchor"
        defer {
            let cleanup = couch
            Task { await cleanup.delete(target); await cleanup.delete(anchorTarget) }
        }
        var clock = ContinuousClock.now
        let first = try await couch.replicate(from: served, to: couch.url(target))
        let couchPull = SyncBenchmark.seconds(since: clock)
        let copied = try await couch.info(url: couch.url(target))
        log("CouchDB's replicator: \(copied.docs) of \(onServer.docs) documents in \(String(format: "%.2f", couchPull)) s")
        clock = ContinuousClock.now
        let second = try await couch.replicate(from: served, to: couch.url(target))
        let couchAgain = SyncBenchmark.seconds(since: clock)
        // A run that found nothing new says `no_changes` and repeats the last session's history.
        let secondWritten = second["no_changes"] == true ? 0 : second["history"]?.arrayValue?.first?.objectValue?["docs_written"]?.intValue ?? 0
        log("CouchDB's replicator again: \(secondWritten) written in \(String(format: "%.2f", couchAgain)) s")

        // Our replicator pulls the same from the same server.
        let copy = try DocumentStore(url: work.appendingPathComponent("copy.sqlite"))
        clock = ContinuousClock.now
        let pulled = try await Sync(store: copy, remoteURL: served, logger: logger).pull()
        let ourPull = SyncBenchmark.seconds(since: clock)
        log("our pull: \(pulled.docsWritten) documents in \(String(format: "%.2f", ourPull)) s")

        // The anchor: CouchDB replicating the same documents from itself.
        clock = ContinuousClock.now
        _ = try await couch.replicate(from: couch.url(target), to: couch.url(anchorTarget))
        let anchor = SyncBenchmark.seconds(since: clock)
        log("CouchDB's replicator from CouchDB (anchor): \(String(format: "%.2f", anchor)) s")

        // Our replicator makes the same copy from CouchDB: its pull of the database CouchDB's
        // replicator copied first, into an empty store.
        let fromCouch = try DocumentStore(url: work.appendingPathComponent("from-couch.sqlite"))
        clock = ContinuousClock.now
        let pulledFromCouch = try await Sync(store: fromCouch, remoteURL: couch.url(target), logger: logger).pull()
        let ourPullFromCouch = SyncBenchmark.seconds(since: clock)
        log("our pull from CouchDB: \(pulledFromCouch.docsWritten) documents in \(String(format: "%.2f", ourPullFromCouch)) s")

        let complete = copied.docs == onServer.docs && copied.deleted == onServer.deleted
        let firstWritten = first["history"]?.arrayValue?.first?.objectValue?["docs_written"]?.intValue ?? 0
        let figures: [(String, String)] = [
            ("documents_on_server", "\(onServer.docs)"),
            ("couch_replicator_copied", "\(copied.docs)"),
            ("couch_replicator_copied_percent", String(format: "%.1f", onServer.docs == 0 ? 100 : Double(copied.docs) * 100 / Double(onServer.docs))),
            ("couch_replicator_docs_written", "\(firstWritten)"),
            ("couch_replicator_pull_s", String(format: "%.2f", couchPull)),
            ("couch_replicator_second_run_written", "\(secondWritten)"),
            ("couch_replicator_second_run_s", String(format: "%.2f", couchAgain)),
            ("our_pull_s", String(format: "%.2f", ourPull)),
            ("couch_from_couch_s", String(format: "%.2f", anchor)),
            ("couch_from_serve_vs_couch_from_couch", String(format: "%.2f", couchPull / anchor)),
            ("our_pull_vs_couch_from_serve", String(format: "%.2f", ourPull / couchPull)),
            ("our_pull_from_couch_s", String(format: "%.2f", ourPullFromCouch)),
            ("our_pull_from_couch_vs_couch_from_couch", String(format: "%.2f", ourPullFromCouch / anchor)),
        ]
        for (name, value) in figures { print("\(name): \(value)") }
        if common.json { try BenchmarkRecord.emit(benchmark: "couch-replicator", figures: "{" + figures.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}") }
        guard complete, secondWritten == 0, pulled.docsWritten == onServer.docs + onServer.deleted,
              pulledFromCouch.docsWritten == copied.docs + copied.deleted else {
            throw ValidationError("incomplete: CouchDB copied \(copied.docs) of \(onServer.docs), wrote \(secondWritten) on its second run; our pull wrote \(pulled.docsWritten), from CouchDB \(pulledFromCouch.docsWritten)")
        }
    }

    private func log(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
