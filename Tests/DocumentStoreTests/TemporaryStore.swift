import Foundation
import GRDB
@testable import DocumentStore
import TestSupport
import DocumentFormat

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
