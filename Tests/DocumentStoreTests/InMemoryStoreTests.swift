import Foundation
import Testing
@testable import DocumentStore
import TestSupport
import DocumentFormat

/// `DocumentStore.inMemory()`: the same store without a file, for tests and scratch work.
@Suite struct InMemoryStoreTests {
    @Test func queriesAnswerAsOnAFileWithTheSameIndexPlans() throws {
        let (file, directory) = try QueryTests.filledStore(indexed: true)
        _ = directory
        let memory = try DocumentStore.inMemory()
        try memory.ensureIndex(fields: ["type", "name"], name: "by-type-name")
        try memory.write(QueryTests.documents.map { .create(id: $0.0, body: $0.1, attachments: []) })
        try memory.ensureIndex(fields: ["minutes"], name: "by-minutes")
        try memory.ensureIndex(fields: ["meta.author", "meta.year"], name: "by-author")
        #expect(memory.path == ":memory:")
        for (selector, expected) in QueryTests.cases {
            let query = Query(selector: selector)
            #expect(Set(try memory.find(query).map(\.id)) == Set(expected), "\(selector)")
            #expect(try memory.explainQueryPlan(query) == file.explainQueryPlan(query), "\(selector)")
        }
    }

    @Test func revisionsConflictsAttachmentsAndTheChangesFeed() throws {
        let store = try DocumentStore.inMemory()
        let first = try store.create(id: "a", body: ["n": 1], attachments: [.put(name: "photo", contentType: "image/png", data: Data([1, 2, 3]))])
        let second = try store.update(id: "a", parent: first.rev, body: ["n": 2])
        #expect(try store.attachment(id: "a", rev: second.rev, name: "photo")?.data == Data([1, 2, 3]))
        try store.insertRevisions([ReplicatedRevision(id: "a", rev: RevisionID("2-ffffffffffffffffffffffffffffffff")!, deleted: false,
                                                      body: ["n": 3], history: [RevisionID("2-ffffffffffffffffffffffffffffffff")!, first.rev], attachments: [:])])
        #expect(try store.conflicts(id: "a").count == 1)
        #expect(try store.latestLocalRevision(id: "a") == second.rev)
        var seen: [String] = []
        _ = try store.forEachChange { seen.append($0.id) }
        #expect(seen == ["a"])
    }

    @Test func aTransactionThatFailsLeavesNothingAndStoresAreSeparate() throws {
        let one = try DocumentStore.inMemory(), two = try DocumentStore.inMemory()
        #expect(one.storeID != two.storeID)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try one.inTransaction { transaction in
                try transaction.create(id: "x", body: [:])
                #expect(try transaction.documentCount() == 1, "reads inside the transaction see its writes")
                throw Stop()
            }
        }
        #expect(try one.documentCount() == 0)
        try two.create(id: "y", body: [:])
        #expect(try one.documentCount() == 0 && two.documentCount() == 1)
    }

    @Test func readOnlyIsRefusedWithAReason() {
        var options = DocumentStore.Options()
        options.readOnly = true
        #expect {
            _ = try DocumentStore.inMemory(options: options)
        } throws: { error in
            guard case DocumentStoreError.storage(let message) = error else { return false }
            return message.contains("in-memory") && message.contains("reading only")
        }
    }
}
