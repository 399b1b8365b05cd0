import Foundation
import Testing
@testable import DocumentStore
import DocumentFormat

@Suite struct LocalDocumentTests {
    @Test func putGetDeleteWithoutHistoryOrChanges() throws {
        let (store, directory) = try makeStore()
        _ = directory
        try store.putLocal(id: "replication-1", body: ["since": 10, "history": [["seq": 10]]])
        #expect(try store.getLocal(id: "replication-1") == ["since": 10, "history": [["seq": 10]]])
        #expect(try store.getLocal(id: "_local/replication-1") == ["since": 10, "history": [["seq": 10]]])
        try store.putLocal(id: "_local/replication-1", body: ["since": 20])
        #expect(try store.getLocal(id: "replication-1") == ["since": 20])
        #expect(try store.lastSequence == 0)
        #expect(try store.changes(since: 0, limit: 10).changes.isEmpty)
        #expect(try store.documentCount() == 0)
        #expect(try store.allDocuments(AllDocsOptions()).isEmpty)
        try store.deleteLocal(id: "replication-1")
        #expect(try store.getLocal(id: "replication-1") == nil)
        try store.deleteLocal(id: "replication-1")
        #expect(throws: DocumentStoreError.invalidDocumentID("_local/")) { try store.putLocal(id: "_local/", body: [:]) }
    }
}
