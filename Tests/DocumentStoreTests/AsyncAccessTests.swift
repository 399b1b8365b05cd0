import Foundation
import Testing
@testable import DocumentStore
import TestSupport
import DocumentFormat

/// The store's async access (`read`, `write`) and how it reports SQLite's failures.
@Suite struct AsyncAccessTests {
    @Test func aReadSeesOneSnapshotAndAWriteSeesItsOwnWrites() async throws {
        let (store, directory) = try makeStore()
        _ = directory
        let created = try await store.withWriter { store in
            let first = try store.create(id: "a", body: ["n": 1])
            // A read inside the write is on the writer connection: it sees the write above.
            #expect(try store.get(id: "a")?.rev == first.rev)
            return try store.update(id: "a", parent: first.rev, body: ["n": 2])
        }
        let (body, sequence) = try await store.withReader { store in (try store.get(id: "a")?.body, try store.lastSequence) }
        #expect(body == ["n": 2])
        #expect(sequence == 2)
        #expect(created.rev.generation == 2)
    }

    @Test func aReaderCannotWriteAndSeesOneSnapshot() async throws {
        let (store, directory) = try makeStore()
        let other = try DocumentStore(path: directory.path("store.sqlite"))
        // Writes are not among a reader's operations (a write inside a read does not compile).
        let writes = try await store.withReader { reader in (reader as Any) is any DocumentStoreWriting }
        #expect(!writes)
        let (before, after) = try await store.withReader { reader in
            let before = try reader.documentCount()
            try other.create(id: "a", body: [:])
            return (before, try reader.documentCount())
        }
        #expect(before == 0 && after == 0)
        #expect(try store.get(id: "a") != nil)
    }

    @Test func errorsThrownInsideComeOutAsTheyAre() async throws {
        struct Refusal: Error, Equatable {}
        let (store, directory) = try makeStore()
        _ = directory
        await #expect(throws: Refusal()) { try await store.withReader { _ in throw Refusal() } }
        await #expect(throws: DocumentStoreError.conflict(id: "a")) {
            try await store.withWriter { store in
                try store.create(id: "a", body: [:])
                try store.create(id: "a", body: [:])
            }
        }
        // The first create committed on its own; the failed second one left nothing behind.
        #expect(try store.get(id: "a") != nil)
        #expect(try store.lastSequence == 1)
    }

    @Test func aStoreLockedByAnotherConnectionFailsTransientlyWithSQLitesCode() async throws {
        var options = DocumentStore.Options()
        options.busyTimeout = 0.05
        let (store, directory) = try makeStore(options: options)
        // A second store object on the same file is a second SQLite connection, as another
        // process would be; its open transaction holds the write lock.
        let holder = try DocumentStore(path: directory.path(), options: options)
        try holder.inTransaction { transaction in
            _ = try transaction.create(id: "held", body: [:])
            do {
                _ = try store.create(id: "blocked", body: [:])
                Issue.record("a write went through while another connection held the lock")
            } catch let error as DocumentStoreError {
                guard case .sqlite(let failure) = error else {
                    Issue.record("expected .sqlite, got \(error)")
                    return
                }
                #expect(failure.resultCode == 5)  // SQLITE_BUSY
                #expect(error.isTransient)
                #expect(error.description.contains("Retry"))
            }
        }
        // Once the lock is released the same write succeeds.
        #expect(try store.create(id: "blocked", body: [:]).rev.generation == 1)
        try holder.close()
    }
}
