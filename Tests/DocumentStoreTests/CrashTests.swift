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

    /// Runs `work` on a new thread and waits for it without blocking the caller's.
    static func onOwnThread(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { continuation in
            Thread { work(); continuation.resume() }.start()
        }
    }

    @Test func killedMidBatchLeavesOnlyWholeBatches() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        let batchSize = 400
        let process = Process()
        process.executableURL = try Self.helperURL()
        process.arguments = [path, "--batch-size", String(batchSize), "--batches", "500"]
        // Output goes to a file, polled on a thread of its own: the wait must neither lag
        // behind a busy pool (the writer would finish first) nor hold one of its threads.
        let outputPath = directory.path("writer.out")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        try process.run()

        // Wait for three batches to be committed, then kill the writer without warning.
        @Sendable func committedLines() -> Int {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").filter { $0.hasPrefix("committed") }.count
        }
        await Self.onOwnThread {
            pollUntil(deadline: Date().addingTimeInterval(120)) { committedLines() >= 3 || !process.isRunning }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let reported = committedLines()
        #expect(reported >= 3)

        let store = try DocumentStore(path: path)
        let count = try store.documentCount()
        #expect(count % batchSize == 0, "a batch was partly written: \(count) documents")
        #expect(count >= reported * batchSize)
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
