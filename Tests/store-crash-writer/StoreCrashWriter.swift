import ArgumentParser
import DocumentStore
import Foundation
import DocumentFormat

/// A test helper: writes batches of documents to a store, printing `committed <n>` after each
/// batch is durable, until it has written `--batches` of them or is killed. With
/// `--hold-batch <n>`, batch `n` is written inside an open transaction, then the helper prints
/// `holding <n>` and waits without committing: the crash tests kill it there with SIGKILL, a
/// handshake rather than a race, and check that the store holds only the whole batches before.
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

    @Option(name: .long, help: "Write this batch in an open transaction, print `holding <n>`, and wait to be killed without committing.")
    var holdBatch: Int?

    func run() throws {
        let store = try DocumentStore(path: path)
        for batch in 0..<batches {
            let operations = (0..<batchSize).map { n in
                DocumentStore.WriteOperation.create(
                    id: "crash-\(batch)-\(n)",
                    body: ["batch": .int(Int64(batch)), "n": .int(Int64(n)), "text": .string(String(repeating: "x", count: 200))],
                    attachments: [])
            }
            if batch == holdBatch {
                try store.inTransaction { transaction in
                    try transaction.write(operations)
                    FileHandle.standardOutput.write(Data("holding \(batch)\n".utf8))
                    // Waits to be killed; a test runner that died first leaves it to end by
                    // itself, without committing, ten minutes later.
                    sleep(600)
                    _exit(3)
                }
            }
            try store.write(operations)
            FileHandle.standardOutput.write(Data("committed \(batch)\n".utf8))
        }
    }
}
