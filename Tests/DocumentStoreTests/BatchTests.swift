import Foundation
import Testing
@testable import DocumentStore

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
        let first = try RevisionHasher.revisionID(parent: nil, deleted: false, body: ["v": 1], attachmentDigests: [:])
        let made = try store.write([
            .create(id: "a", body: ["v": 1], attachments: []),
            .update(id: "a", parent: first, body: ["v": 2], attachments: []),
        ])
        #expect(made[0].rev == first)
        #expect(try store.get(id: "a")?.rev == made[1].rev)
        #expect(try store.changes(since: 0, limit: 10).changes.map(\.id) == ["a"])
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
        #expect(try outcomes.compactMap { try? $0.get().sequence } == [2, 3, 4])
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
