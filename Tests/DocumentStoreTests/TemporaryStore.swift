import Foundation
import GRDB
@testable import DocumentStore

/// A directory under the system temp dir, removed when the value goes away.
final class TemporaryDirectory: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("DocumentStoreTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path for a store file in this directory.
    func path(_ name: String = "store.sqlite") -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Opens a fresh store in its own temporary directory.
func makeStore(_ name: String = "store.sqlite", options: DocumentStore.Options = .init())
    throws -> (DocumentStore, TemporaryDirectory)
{
    let directory = try TemporaryDirectory()
    return (try DocumentStore(path: directory.path(name), options: options), directory)
}

/// Counts rows of a table straight from the SQLite file, to check what is physically stored.
func countRows(_ path: String, _ sql: String) throws -> Int {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { try Int.fetchOne($0, sql: sql) ?? -1 }
}

/// Parses a revision ID that the test knows is well formed.
func rev(_ text: String) -> RevisionID { RevisionID(text)! }
