import Foundation
import Testing
@testable import DocumentStore
import TestSupport
import DocumentFormat

@Suite struct CrashTests {
    /// The `store-crash-writer` helper built next to the test bundle.
    static func helperURL() throws -> URL {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for directory in candidates {
            let url = directory.appendingPathComponent("store-crash-writer")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw DocumentStoreError.notFound(id: "store-crash-writer next to \(candidates.map(\.path))")
    }

    @Test func killedMidBatchLeavesOnlyWholeBatches() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        let batchSize = 400
        let heldBatch = 3
        // The writer commits three batches, writes the fourth inside an open transaction,
        // says so and waits: the kill lands mid-batch however fast or busy the machine is.
        let writer = try await RunningProcess.start(
            try Self.helperURL(), arguments: [path, "--batch-size", String(batchSize), "--batches", "500", "--hold-batch", String(heldBatch)])
        let holding = await writer.waitForOutput(containing: "holding \(heldBatch)\n", timeout: 300)
        try #require(holding != nil, "waited for the writer to hold batch \(heldBatch) open; it printed \(writer.stdout.debugDescription), stderr \(writer.stderr.debugDescription), \(writer.child.termination.map { "ended with \($0)" } ?? "still running")")
        #expect(try await writer.child.stop(SIGKILL) == .signalled(SIGKILL))
        let reported = writer.stdout.split(separator: "\n").filter { $0.hasPrefix("committed") }.count
        #expect(reported == heldBatch)

        let store = try DocumentStore(path: path)
        let count = try store.documentCount()
        #expect(count == heldBatch * batchSize, "\(count) documents after the kill, not the \(heldBatch) whole batches committed")
        #expect(try store.lastSequence == Int64(count))
        let lastBatch = count / batchSize - 1
        #expect(try store.get(id: "crash-\(lastBatch)-\(batchSize - 1)")?.body["batch"] == .int(Int64(lastBatch)))
        #expect(try store.get(id: "crash-\(lastBatch + 1)-0") == nil)
        try store.create(id: "after-crash", body: ["ok": true])
        #expect(try store.documentCount() == count + 1)
        try store.close()
        #expect(try countRows(path, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check = 'ok'") == 1)
    }
}
