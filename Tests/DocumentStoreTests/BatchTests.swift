import Foundation
import Testing
@testable import DocumentStore
import TestSupport
import DocumentFormat

@Suite struct BatchTests {
    @Test func batchWritesEverythingInOrder() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let made = try store.write([
            .create(id: "a", body: ["n": 1], attachments: []),
            .create(id: "b", body: ["n": 2], attachments: []),
        ])
        let more = try store.write([
            .update(id: "a", parent: made[0].rev, body: ["n": 10], attachments: []),
            .delete(id: "b", parent: made[1].rev),
            .create(id: "c", body: ["n": 3], attachments: []),
        ])
        #expect(more.map(\.rev.generation) == [2, 2, 1])
        #expect(try store.get(id: "a")?.body == ["n": 10])
        #expect(try store.get(id: "b") == nil)
        #expect(try store.documentCount() == 2)
        #expect(more.map(\.sequence) == [3, 4, 5])
    }

    @Test func batchWhoseLastOperationFailsLeavesNothing() throws {
        let directory = try TemporaryDirectory()
        var store: DocumentStore? = try DocumentStore(path: directory.path())
        let existing = try store!.create(id: "keep", body: ["v": 1])
        let sequenceBefore = try store!.lastSequence
        #expect(throws: DocumentStoreError.conflict(id: "keep")) {
            try store!.write([
                .create(id: "new-1", body: ["v": 1], attachments: [.put(name: "a.txt", contentType: "text/plain", data: Data("hello".utf8))]),
                .update(id: "keep", parent: existing.rev, body: ["v": 2], attachments: []),
                .update(id: "keep", parent: existing.rev, body: ["v": 3], attachments: []),   // stale now: fails
            ])
        }
        try store!.close()
        store = nil
        let reopened = try DocumentStore(path: directory.path())
        #expect(try reopened.get(id: "new-1") == nil)
        #expect(try reopened.get(id: "keep")?.rev == existing.rev)
        #expect(try reopened.lastSequence == sequenceBefore)
        #expect(try reopened.hasAttachment(digest: RevisionHasher.attachmentDigest(Data("hello".utf8))) == false)
        #expect(try countRows(directory.path(), "SELECT count(*) FROM revs") == 1)
    }

    @Test func twoOperationsOnOneDocumentChainInsideABatch() throws {
        let (store, directory) = try makeStore()
        _ = directory
        // The ID the create will get, independently of the code under test: the one CouchDB
        // 3.4.3 gave `PUT {"v":1}`.
        let first = rev("1-7a7e4b29f3af401e69b6f86e4c26b727")
        let made = try store.write([
            .create(id: "a", body: ["v": 1], attachments: []),
            .update(id: "a", parent: first, body: ["v": 2], attachments: []),
        ])
        #expect(made[0].rev == first)
        #expect(try store.get(id: "a")?.rev == made[1].rev)
        #expect(try store.changes(since: 0, limit: 10).changes.map(\.id) == ["a"])
    }

    /// Creates read their rows in bulk even when the batch also updates other documents (an
    /// import's batches do: types gain recipes), and still see what the batch itself does.
    @Test func createsBesideUpdatesSeeStoredAndEarlierRows() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let made = try store.write([
            .create(id: "type", body: ["n": 0], attachments: []),
            .create(id: "gone", body: ["n": 1], attachments: []),
            .create(id: "live", body: ["n": 2], attachments: []),
        ])
        let gone = try store.delete(id: "gone", parent: made[1].rev)
        let more = try store.write([
            .create(id: "r1", body: ["n": 3], attachments: []),
            .update(id: "type", parent: made[0].rev, body: ["n": 1], attachments: []),
            .create(id: "gone", body: ["n": 4], attachments: []),   // over its tombstone
            .create(id: "r2", body: ["n": 5], attachments: []),
        ])
        #expect(more.map(\.rev.generation) == [1, 2, 3, 1])
        #expect(more[2].rev.generation == gone.rev.generation + 1)
        #expect(try store.get(id: "gone")?.body == ["n": 4])
        #expect(try store.get(id: "type")?.body == ["n": 1])
        // A create of a live document is refused, and the batch leaves nothing.
        #expect(throws: DocumentStoreError.conflict(id: "live")) {
            try store.write([
                .create(id: "r3", body: [:], attachments: []),
                .update(id: "type", parent: more[1].rev, body: ["n": 2], attachments: []),
                .create(id: "live", body: [:], attachments: []),
            ])
        }
        #expect(try store.get(id: "r3") == nil)
        // A delete and a re-create of one ID in one batch chain, as one at a time would.
        let chained = try store.write([
            .create(id: "r4", body: [:], attachments: []),
            .delete(id: "live", parent: made[2].rev),
            .create(id: "live", body: ["n": 9], attachments: []),
        ])
        #expect(chained[2].rev.generation == 3)
        #expect(try store.get(id: "live")?.body == ["n": 9])
    }

    @Test func writeEachReportsRefusalsInPlaceAndCommitsTheRestTogether() throws {
        let directory = try TemporaryDirectory()
        var store: DocumentStore? = try DocumentStore(path: directory.path())
        let existing = try store!.create(id: "keep", body: ["v": 1])
        let outcomes = try store!.writeEach([
            .create(id: "new-1", body: ["v": 1], attachments: [.put(name: "a.txt", contentType: "text/plain", data: Data("hello".utf8))]),
            .create(id: "keep", body: ["v": 9], attachments: []),                  // exists: refused
            .update(id: "keep", parent: existing.rev, body: ["v": 2], attachments: []),
            .update(id: "keep", parent: existing.rev, body: ["v": 3], attachments: []),   // stale now: refused
            .create(id: "_bad", body: [:], attachments: []),                         // reserved ID: refused
            .create(id: "new-2", body: ["v": 2], attachments: []),
        ])
        #expect(outcomes.count == 6)
        #expect(outcomes.map { (try? $0.get()) != nil } == [true, false, true, false, false, true])
        if case .failure(let error) = outcomes[1] { #expect(error == .conflict(id: "keep")) }
        if case .failure(let error) = outcomes[4] { #expect(error == .invalidDocumentID("_bad")) }
        // What went through is committed and counted; refusals left no rows, sequences or counts behind.
        #expect(outcomes.compactMap { try? $0.get().sequence } == [2, 3, 4])
        try store!.close()
        store = nil
        let reopened = try DocumentStore(path: directory.path())
        #expect(try reopened.get(id: "keep")?.body == ["v": 2])
        #expect(try reopened.get(id: "new-1") != nil)
        #expect(try reopened.get(id: "new-2") != nil)
        #expect(try reopened.documentCount() == 3)
        #expect(try reopened.lastSequence == 4)
        #expect(try countRows(directory.path(), "SELECT count(*) FROM revs") == 4)
    }
}
