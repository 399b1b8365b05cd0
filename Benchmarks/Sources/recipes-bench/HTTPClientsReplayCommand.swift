import ArgumentParser
import Foundation
import DocumentFormat

/// `recipes-bench http-clients-replay` (hidden): one client replays one pull or one push in
/// a process of its own, so `recipes-bench http-clients` can read each client's peak RSS
/// apart. Writes its figures as one JSON object to `--output`, or `{"error": …}` on failure.
struct HTTPClientsReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http-clients-replay",
        abstract: "One replay of `http-clients` (run by it).",
        shouldDisplay: false)

    /// Which replication direction to replay.
    enum Phase: String, ExpressibleByArgument, CaseIterable {
        /// `_changes` pages and `_bulk_get` batches from a database holding the documents.
        case pull
        /// `_revs_diff` and `_bulk_docs` batches into a database the replay creates (and
        /// deletes after checking it holds every document).
        case push
    }

    @Option(help: "urlsession or ahc.")
    var client: String

    @Option(help: "pull or push.")
    var phase: Phase

    @Option(help: "The database URL (credentials allowed).")
    var database: String

    @Option(help: "Documents (as `recipes-bench sync` makes them).")
    var docs: Int

    @Option(help: "Every n-th document carries an attachment (0 = none).")
    var attachmentEvery: Int

    @Option(help: "Attachment size in bytes.")
    var attachmentBytes: Int

    @Option(help: "Connections, and requests in flight at most.")
    var connections: Int

    @Option(help: "Changes per batch.")
    var batchSize: Int

    @Option(help: "Documents per `_bulk_get` and per `_bulk_docs` at most.")
    var documentsPerRequest: Int

    @Option(help: "Where to write the figures.")
    var output: String

    func run() async throws {
        do {
            let figures = try await replay()
            try Data(JSONSerialization.data(withJSONObject: figures)).write(to: URL(fileURLWithPath: output))
        } catch {
            let text = ["error": "\(error)"]
            try? JSONSerialization.data(withJSONObject: text).write(to: URL(fileURLWithPath: output))
            throw error
        }
    }

    private func replay() async throws -> [String: Any] {
        guard let kind = ReplayClientKind(rawValue: client) else { throw ValidationError("unknown client \(client)") }
        let every = attachmentEvery > 0 ? attachmentEvery : nil
        let transport = kind.makeTransport(connections: connections, timeout: 60)
        let replay = try ReplicationTrafficReplay(transport: transport, databaseURL: database, connections: connections,
                                                  batchSize: batchSize, documentsPerFetch: documentsPerRequest)
        let tally: ReplicationTrafficReplay.Tally
        let seconds: Double
        switch phase {
        case .pull:
            let factory = RecipeDocumentFactory()
            let withAttachments = Set(every.map { every in stride(from: 0, to: docs, by: every).map { factory.id($0) } } ?? [])
            let start = ContinuousClock.now
            tally = try await replay.pull(withAttachments: withAttachments)
            seconds = SyncBenchmark.seconds(since: start)
        case .push:
            let documents = ReplayDocuments(count: docs, attachmentEvery: every, attachmentBytes: attachmentBytes, batchSize: batchSize,
                                            documentsPerWrite: documentsPerRequest, connections: connections)
            try await replay.createDatabase()
            let start = ContinuousClock.now
            tally = try await replay.push(documents)
            seconds = SyncBenchmark.seconds(since: start)
            let stored = try await replay.documentCount()
            try await replay.deleteDatabase()
            guard stored == docs else { throw ValidationError("the push left \(stored) of \(docs) documents") }
        }
        try await transport.shutdown()
        guard tally.documents == docs else { throw ValidationError("replayed \(tally.documents) of \(docs) documents") }
        // This process's own peak (VmHWM), not wait4's ru_maxrss: a child spawned with vfork
        // inherits its parent's high-water mark in the latter.
        return ["requests": tally.requests, "documents": tally.documents, "seconds": seconds,
                "bytes_out": tally.bytesOut, "bytes_in": tally.bytesIn, "peak_rss_mb": PeakMemory.megabytes() ?? 0]
    }
}
