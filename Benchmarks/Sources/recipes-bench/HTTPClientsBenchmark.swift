import ArgumentParser
import DocumentStore
import Foundation
import Logging
import Replication

/// `recipes-bench http-clients`: the replication client's HTTP traffic for a pull and a push
/// replayed with URLSession and with AsyncHTTPClient, against a `recipes serve` process and,
/// with `--couchdb` (or COUCHDB_URL), a CouchDB server. Each replay runs in a process of its
/// own (`http-clients-replay`), the two clients alternating, so their figures come from the
/// same minutes of the machine and each peak RSS is its client's alone.
struct HTTPClientsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http-clients",
        abstract: "Compare URLSession and AsyncHTTPClient on the replication client's requests.")

    @Option(help: "Documents pulled and pushed per run.")
    var docs = 5_000

    @Option(help: "Percentage of documents carrying an attachment.")
    var attachmentPercent = 10

    @Option(help: "Attachment size in bytes.")
    var attachmentBytes = 20 * 1024

    @Option(help: "Changes per batch (`ReplicationOptions.batchSize`).")
    var batchSize = 500

    @Option(help: "Documents per `_bulk_get` / `_bulk_docs` at most (`ReplicationOptions.documentsPerFetch`, `documentsPerWrite`).")
    var documentsPerRequest = 250

    @Option(help: "Connections per client (`CouchClientOptions.maxConnections`).")
    var connections = 4

    @Option(help: "Measured runs of each client, phase and server.")
    var rounds = 5

    @Option(help: "Path of the `recipes` executable (default: next to this program).")
    var server: String?

    @Option(help: ArgumentHelp("Also replay against this CouchDB server (an admin URL; default COUCHDB_URL); databases are made for the run and deleted after.", valueName: "url"))
    var couchdb: String?

    @Flag(help: "Print a JSON object with the figures as the last line.")
    var json = false

    func run() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-http-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let executable = try RecipesExecutable.path(server, option: "--server")
        let process = try ServerProcess(executable: executable, dataDirectory: work.appendingPathComponent("server"),
                                        errorLog: work.appendingPathComponent("server.log"))
        defer { process.terminate() }
        let run = String(UUID().uuidString.prefix(8).lowercased())
        var servers = [(name: "recipes serve", root: "http://127.0.0.1:\(process.port)", prefix: "bench")]
        if let couch = couchdb ?? ProcessInfo.processInfo.environment["COUCHDB_URL"], !couch.isEmpty {
            servers.append((name: "CouchDB", root: couch.hasSuffix("/") ? String(couch.dropLast()) : couch, prefix: "recipes-http-bench-\(run)"))
        }
        let every = attachmentPercent > 0 ? max(1, 100 / attachmentPercent) : nil
        let source = try DocumentStore(url: work.appendingPathComponent("source.sqlite"))
        try RecipeDocumentFactory().write(docs, into: source, attachmentEvery: every, attachmentBytes: attachmentBytes)
        var logger = Logger(label: "recipes.bench.http-clients")
        logger.logLevel = .warning

        var samples: [String: ReplaySample] = [:]
        for target in servers {
            let pullDatabase = "\(target.root)/\(target.prefix)-pull"
            var options = ReplicationOptions()
            options.createTarget = true
            let seeded = try await Sync(store: source, remoteURL: pullDatabase, logger: logger).push(options: options)
            guard seeded.docsWritten == docs else { throw ValidationError("seeding \(target.name) wrote \(seeded.docsWritten) of \(docs)") }
            log("\(target.name): \(docs) documents to pull")
            // Round 0 warms the server and the page cache; its figures are dropped.
            for round in 0...rounds {
                let order: [ReplayClientKind] = round % 2 == 0 ? [.urlsession, .ahc] : [.ahc, .urlsession]
                for client in order {
                    for phase in HTTPClientsReplayCommand.Phase.allCases {
                        let database = phase == .pull ? pullDatabase : "\(target.root)/\(target.prefix)-push-\(client.rawValue)-\(round)"
                        let (figures, rss) = try replay(client: client, phase: phase, database: database, every: every, work: work)
                        let seconds = figures["seconds"] as? Double ?? .nan
                        let requests = figures["requests"] as? Int ?? 0
                        log("\(target.name) round \(round) \(client.rawValue) \(phase.rawValue): \(String(format: "%.0f", Double(docs) / seconds)) docs/s, "
                            + "\(String(format: "%.0f", Double(requests) / seconds)) requests/s, peak RSS \(String(format: "%.1f", rss)) MiB")
                        if round > 0 {
                            samples["\(target.name)|\(phase.rawValue)|\(client.rawValue)", default: ReplaySample()]
                                .add(documents: docs, requests: requests, seconds: seconds, peakRSS: rss)
                        }
                    }
                }
            }
            await Self.delete(pullDatabase)
        }

        print("http-clients: \(docs) documents (1 in \(every.map(String.init) ?? "-") with \(attachmentBytes) bytes), "
              + "\(connections) connections, \(rounds) rounds; median (min–max)")
        var figures: [String] = []
        for target in servers {
            for phase in HTTPClientsReplayCommand.Phase.allCases {
                for client in ReplayClientKind.allCases {
                    guard let sample = samples["\(target.name)|\(phase.rawValue)|\(client.rawValue)"] else { continue }
                    print("\(target.name) \(phase.rawValue) \(client.rawValue): \(ReplaySample.summary(sample.documentsPerSecond, "%.0f")) docs/s, "
                          + "\(ReplaySample.summary(sample.requestsPerSecond, "%.1f")) requests/s, peak RSS \(ReplaySample.summary(sample.peakRSS, "%.1f")) MiB")
                    let key = "\(target.name == "CouchDB" ? "couchdb" : "serve")_\(phase.rawValue)_\(client.rawValue)"
                    figures.append("\"\(key)_docs_per_s\":[\(sample.documentsPerSecond.map { String(format: "%.0f", $0) }.joined(separator: ","))]")
                    figures.append("\"\(key)_requests_per_s\":[\(sample.requestsPerSecond.map { String(format: "%.1f", $0) }.joined(separator: ","))]")
                    figures.append("\"\(key)_peak_rss_mb\":[\(sample.peakRSS.map { String(format: "%.1f", $0) }.joined(separator: ","))]")
                }
            }
        }
        if json { try BenchmarkRecord.emit(benchmark: "http-clients", figures: "{\"docs\":\(docs)," + figures.joined(separator: ",") + "}") }
    }

    /// Runs one replay in a child process; its figures and its peak RSS in MiB (as the child
    /// read it from its own `/proc/self/status`).
    private func replay(client: ReplayClientKind, phase: HTTPClientsReplayCommand.Phase, database: String, every: Int?,
                        work: URL) throws -> ([String: Any], Double) {
        let output = work.appendingPathComponent("replay-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let arguments = ["http-clients-replay", "--client", client.rawValue, "--phase", phase.rawValue, "--database", database,
                         "--docs", String(docs), "--attachment-every", String(every ?? 0), "--attachment-bytes", String(attachmentBytes),
                         "--connections", String(connections), "--batch-size", String(batchSize),
                         "--documents-per-request", String(documentsPerRequest), "--output", output.path]
        do {
            _ = try ChildProcess.run(Bundle.main.executableURL!.path, arguments)
        } catch {
            let said = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            throw ValidationError("\(client.rawValue) \(phase.rawValue) replay failed: \(error) \(said)")
        }
        let figures = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any] ?? [:]
        return (figures, figures["peak_rss_mb"] as? Double ?? .nan)
    }

    /// Deletes a database made for the run (best effort).
    private static func delete(_ database: String) async {
        let transport = URLSessionReplayTransport(connections: 1, timeout: 30)
        if let replay = try? ReplicationTrafficReplay(transport: transport, databaseURL: database, connections: 1,
                                                      batchSize: 1, documentsPerFetch: 1) {
            try? await replay.deleteDatabase()
        }
        try? await transport.shutdown()
    }

    private func log(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
