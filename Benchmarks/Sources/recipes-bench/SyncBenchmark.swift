import ArgumentParser
import DocumentStore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import RecipesKit
import Replication
import DocumentFormat
import HTTPSupport

/// `recipes-bench sync`: push, pull, no-op sync and one-change sync of recipe-shaped documents
/// against a real `recipes serve` process on 127.0.0.1.
struct SyncBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Measure push, pull and incremental sync against a local `recipes serve` process.")

    @Option(help: "Documents to replicate.")
    var docs = 10_000

    @Option(help: "Percentage of documents carrying an attachment.")
    var attachmentPercent = 10

    @Option(help: "Attachment size in bytes.")
    var attachmentBytes = 20 * 1024

    @Option(help: "Changes per replication batch.")
    var batchSize = 500

    @Option(help: "HTTP connections per replication.")
    var connections = 4

    @Option(help: "Also push, then pull, one document with an attachment of this many MiB and report the peak RSS of each (0 = off).")
    var largeAttachmentMb = 0

    @Option(help: "Path of the `recipes` executable (default: next to this program).")
    var server: String?

    @Option(help: ArgumentHelp("Replicate with a database on this CouchDB server (an admin URL) instead of a `recipes serve` process; the database is made for the run and deleted after.", valueName: "url"))
    var couchdb: String?

    @Flag(help: "Serve and sync over HTTPS, with a CA and certificate made with openssl for the run (compare with a run without).")
    var tls = false

    @Flag(help: "Print a JSON object with the figures as the last line.")
    var json = false

    func run() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-sync-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let remote: String
        let serverRoot: String
        var process: ServerProcess?
        var client = CouchClientOptions()
        if let couchdb {
            guard !tls else { throw ValidationError("--tls serves a `recipes serve` process over HTTPS; leave it out with --couchdb") }
            guard largeAttachmentMb == 0 else { throw ValidationError("--large-attachment-mb measures `recipes serve`; leave it out with --couchdb") }
            serverRoot = couchdb.hasSuffix("/") ? String(couchdb.dropLast()) : couchdb
            remote = "\(serverRoot)/recipes-bench-\(UUID().uuidString.prefix(8).lowercased())"
            log("server: CouchDB at \(CredentialMask.masked(serverRoot))")
        } else {
            let executable = try RecipesExecutable.path(server, option: "--server")
            var extra: [String] = []
            if tls {
                let certificates = try HouseholdCertificates.make(in: work.appendingPathComponent("tls"))
                extra = ["--tls-cert", certificates.certificate.path, "--tls-key", certificates.key.path]
                client.trustedCertificates = try TrustedCertificates(pemFiles: [certificates.caCertificate])
            }
            let started = try ServerProcess(executable: executable, dataDirectory: work.appendingPathComponent("server"),
                                            maxBodyMegabytes: max(64, largeAttachmentMb * 2 + 16), extra: extra)
            process = started
            serverRoot = "\(tls ? "https" : "http")://127.0.0.1:\(started.port)"
            remote = "\(serverRoot)/bench"
            log("server: \(executable) on port \(started.port)\(tls ? ", over HTTPS" : "")")
        }
        defer {
            process?.terminate()
            if couchdb != nil { Self.deleteDatabase(remote) }
        }

        let factory = RecipeDocumentFactory()
        let source = try DocumentStore(url: work.appendingPathComponent("source.sqlite"))
        try factory.write(docs, into: source, attachmentEvery: attachmentPercent > 0 ? max(1, 100 / attachmentPercent) : nil,
                          attachmentBytes: attachmentBytes)
        log("source store: \(docs) documents")

        var logger = Logger(label: "recipes.bench.sync")
        logger.logLevel = .warning
        client.maxConnections = connections
        var options = ReplicationOptions()
        options.batchSize = batchSize
        let sourceSync = try Sync(store: source, remoteURL: remote, clientOptions: client, logger: logger)
        var pushOptions = options
        pushOptions.createTarget = true
        var clock = ContinuousClock.now
        let pushed = try await sourceSync.push(options: pushOptions)
        let pushSeconds = Self.seconds(since: clock)
        log("push: \(pushed.docsWritten) docs in \(String(format: "%.2f", pushSeconds)) s")

        let copy = try DocumentStore(url: work.appendingPathComponent("copy.sqlite"))
        let copySync = try Sync(store: copy, remoteURL: remote, clientOptions: client, logger: logger)
        clock = ContinuousClock.now
        let pulled = try await copySync.pull(options: options)
        let pullSeconds = Self.seconds(since: clock)
        log("pull: \(pulled.docsWritten) docs in \(String(format: "%.2f", pullSeconds)) s")
        guard pushed.docsWritten == docs, pulled.docsWritten == docs, try copy.documentCount() == docs else {
            throw ValidationError("replication incomplete: pushed \(pushed.docsWritten), pulled \(pulled.docsWritten) of \(docs)")
        }

        // The copy's first sync after its pull: everything it holds came from the server, so
        // its push (the first, without a checkpoint) must offer nothing back (no echo).
        clock = ContinuousClock.now
        let echo = try await copySync.sync(options: options)
        let echoMs = Self.seconds(since: clock) * 1000
        log("first sync after the pull: \(String(format: "%.1f", echoMs)) ms (\(echo.push.docsWritten) pushed)")
        guard echo.push.docsWritten == 0 else { throw ValidationError("the sync after a pull pushed \(echo.push.docsWritten) documents back") }

        _ = try await sourceSync.sync(options: options)  // establishes the pull checkpoint of the source
        clock = ContinuousClock.now
        let noop = try await sourceSync.sync(options: options)
        let noopMs = Self.seconds(since: clock) * 1000
        log("no-op sync: \(String(format: "%.1f", noopMs)) ms (\(noop.pull.docsRead + noop.push.docsRead) docs read)")

        let changed = try source.get(id: factory.id(docs / 2))!
        var body = changed.body
        body["name"] = .string("Changed recipe")
        _ = try source.update(id: changed.id, parent: changed.rev, body: body)
        clock = ContinuousClock.now
        let one = try await sourceSync.sync(options: options)
        let oneMs = Self.seconds(since: clock) * 1000
        log("one-change sync: \(String(format: "%.1f", oneMs)) ms (\(one.push.docsWritten) pushed)")

        let rss = PeakMemory.megabytes() ?? 0
        // The anchor, in the same run: raw SQLite inserts of the same documents (after the
        // peak memory is read, so its batches do not count there).
        let (rawSeconds, _) = try RawDocumentInsertAnchor.seconds(docs: docs, factory: factory, batch: 1_000,
                                                                  attachmentEvery: attachmentPercent > 0 ? max(1, 100 / attachmentPercent) : nil,
                                                                  attachmentBytes: attachmentBytes, in: work)
        log("raw SQLite insert of the same documents: \(String(format: "%.2f", rawSeconds)) s")
        var figures: [(String, String)] = [
            ("docs", "\(docs)"),
            ("push_docs_per_s", String(format: "%.0f", Double(docs) / pushSeconds)),
            ("pull_docs_per_s", String(format: "%.0f", Double(docs) / pullSeconds)),
            ("raw_insert_docs_per_s", String(format: "%.0f", Double(docs) / rawSeconds)),
            ("push_vs_raw_insert", String(format: "%.3f", rawSeconds / pushSeconds)),
            ("pull_vs_raw_insert", String(format: "%.3f", rawSeconds / pullSeconds)),
            ("sync_after_pull_ms", String(format: "%.1f", echoMs)),
            ("noop_sync_ms", String(format: "%.1f", noopMs)),
            ("one_change_sync_ms", String(format: "%.1f", oneMs)),
            ("peak_rss_mb", String(format: "%.1f", rss)),
        ]
        if largeAttachmentMb > 0 {
            let (push, pull) = try await largeTransfer(server: "\(serverRoot)/bench-large", work: work,
                                                       client: client, logger: logger)
            figures.append(("large_attachment_mb", "\(largeAttachmentMb)"))
            for (name, phase) in [("push", push), ("pull", pull)] {
                figures.append(("large_\(name)_rss_before_mb", String(format: "%.1f", phase.before)))
                figures.append(("large_\(name)_peak_rss_mb", String(format: "%.1f", phase.peak)))
                figures.append(("large_\(name)_s", String(format: "%.2f", phase.seconds)))
            }
        }
        for (name, value) in figures { print("\(name): \(value)") }
        if json {
            try BenchmarkRecord.emit(benchmark: "sync", figures: "{" + figures.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
        }
    }

    /// Deletes the run's database on CouchDB (best effort: a leftover is named for the run).
    private static func deleteDatabase(_ url: String) {
        guard let target = URL(string: url) else { return }
        var request = URLRequest(url: target)
        request.httpMethod = "DELETE"
        if let user = target.user, let password = target.password {
            request.setValue("Basic " + Data("\(user):\(password)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        }
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { _, _, _ in done.signal() }.resume()
        _ = done.wait(timeout: .now() + 10)
    }

    /// The RSS a phase started from, its peak, and its duration.
    private typealias Phase = (before: Double, peak: Double, seconds: Double)

    /// Pushes one document carrying a `largeAttachmentMb` MiB attachment, then pulls it into an
    /// empty store, with the peak-RSS mark reset before each, so each peak is that phase's alone.
    private func largeTransfer(server remote: String, work: URL, client: CouchClientOptions,
                               logger: Logger) async throws -> (push: Phase, pull: Phase) {
        let size = largeAttachmentMb * 1024 * 1024
        let source = try DocumentStore(url: work.appendingPathComponent("large-source.sqlite"))
        let factory = RecipeDocumentFactory()
        var data: Data? = Self.bytes(size, seed: 7)
        _ = try source.write([.create(id: factory.id(0), body: factory.body(0),
                                      attachments: [.put(name: "video", contentType: "application/octet-stream", data: data!)])])
        data = nil
        var options = ReplicationOptions()
        options.createTarget = true
        let pushBefore = PeakMemory.resetPeak() ?? 0
        var clock = ContinuousClock.now
        let pushed = try await Sync(store: source, remoteURL: remote, clientOptions: client, logger: logger).push(options: options)
        let push: Phase = (pushBefore, PeakMemory.megabytes() ?? 0, Self.seconds(since: clock))
        guard pushed.docsWritten == 1 else { throw ValidationError("the large document was not pushed") }
        log("large push: \(largeAttachmentMb) MiB in \(String(format: "%.2f", push.seconds)) s, peak RSS \(String(format: "%.1f", push.peak)) MiB (from \(String(format: "%.1f", push.before)))")
        let copy = try DocumentStore(url: work.appendingPathComponent("large-copy.sqlite"))
        let copySync = try Sync(store: copy, remoteURL: remote, clientOptions: client, logger: logger)
        let pullBefore = PeakMemory.resetPeak() ?? 0
        clock = ContinuousClock.now
        let pulled = try await copySync.pull(options: ReplicationOptions())
        let pull: Phase = (pullBefore, PeakMemory.megabytes() ?? 0, Self.seconds(since: clock))
        guard pulled.docsWritten == 1, let stored = try copy.attachment(id: factory.id(0), name: "video"), stored.data.count == size else {
            throw ValidationError("the large document was not pulled whole")
        }
        log("large pull: \(largeAttachmentMb) MiB in \(String(format: "%.2f", pull.seconds)) s, peak RSS \(String(format: "%.1f", pull.peak)) MiB (from \(String(format: "%.1f", pull.before)))")
        return (push, pull)
    }

    private func log(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func bytes(_ count: Int, seed: Int) -> Data {
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        return Data((0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        })
    }

}
