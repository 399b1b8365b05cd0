import Foundation
import Testing
import GRDB
@testable import DocumentStore
import TestSupport
import DocumentFormat

/// A write the store reports as done is on disk: the connection that commits syncs every
/// commit (`synchronous = FULL`), on a new store file and on one opened again.
@Suite struct DurabilityTests {
    /// The writer connection's `synchronous` level (2 is FULL, 1 is NORMAL).
    func writerSynchronousLevel(_ store: DocumentStore) throws -> Int? {
        try store.database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
    }

    @Test func everyCommitIsSyncedOnNewAndReopenedStores() throws {
        let (store, directory) = try makeStore()
        try store.create(id: "a", body: ["name": "first"])
        #expect(try writerSynchronousLevel(store) == 2)
        try store.close()

        let reopened = try DocumentStore(path: directory.path("store.sqlite"))
        defer { try? reopened.close() }
        #expect(try writerSynchronousLevel(reopened) == 2)
        try reopened.create(id: "b", body: ["name": "second"])
        #expect(try reopened.get(id: "b") != nil)
    }
}
