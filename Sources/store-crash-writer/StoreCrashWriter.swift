import ArgumentParser
import DocumentStore
import Foundation
import DocumentFormat

/// A test helper: writes batches of documents to a store, printing `committed <n>` after each
/// batch is durable, until it has written `--batches` of them or is killed. The crash tests
/// kill it with SIGKILL mid-batch and check that the store holds only whole batches.
@main
struct StoreCrashWriter: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store-crash-writer",
        abstract: "Write batches of documents to a DocumentStore until killed (for crash tests).")

    @Argument(help: "Path of the store file.")
    var path: String

    @Option(name: .long, help: "Documents per batch.")
    var batchSize = 500

    @Option(name: .long, help: "Batches to write before stopping by itself.")
    var batches = 2_000

    func run() throws {
        let store = try DocumentStore(path: path)
        for batch in 0..<batches {
            let operations = (0..<batchSize).map { n in
                DocumentStore.WriteOperation.create(
                    id: "crash-\(batch)-\(n)",
                    body: ["batch": .int(Int64(batch)), "n": .int(Int64(n)), "text": .string(String(repeating: "x", count: 200))],
                    attachments: [])
            }
            try store.write(operations)
            FileHandle.standardOutput.write(Data("committed \(batch)\n".utf8))
        }
    }
}
