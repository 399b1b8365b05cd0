import Foundation
import Testing
@testable import DocumentStore
import TestSupport
import DocumentFormat

/// `withSnapshot(_:)` holds one read of one snapshot for every read inside it: a query and
/// its sub-queries see the same state, whatever another connection commits meanwhile.
@Suite("DocumentStore: reads on one snapshot")
struct SnapshotTests {
    struct Stop: Error, Equatable {}

    @Test func readsInsideOneSnapshotDoNotSeeALaterCommitAndReadsAfterItDo() throws {
        let (store, directory) = try makeStore()
        try store.create(id: "a", body: ["kind": "item"])
        let other = try DocumentStore(path: directory.path("store.sqlite"))
        let seen = try store.withSnapshot { () throws -> (before: Int, after: Int, found: Bool) in
            let before = try store.find(Query(selector: ["kind": "item"])).count
            try other.create(id: "b", body: ["kind": "item"])
            return (before, try store.find(Query(selector: ["kind": "item"])).count, try store.get(id: "b") != nil)
        }
        #expect(seen.before == 1 && seen.after == 1 && !seen.found)
        #expect(try store.find(Query(selector: ["kind": "item"])).count == 2)
    }

    @Test func whatTheBodyThrowsComesOutAsItIsAndAWriteInsideIsRefused() throws {
        let (store, directory) = try makeStore()
        _ = directory
        #expect(throws: Stop()) { try store.withSnapshot { () throws -> Int in throw Stop() } }
        #expect(throws: DocumentStoreError.self) { try store.withSnapshot { try store.create(id: "x", body: [:]) } }
        #expect(try store.get(id: "x") == nil)
        // Nested, and inside a transaction: the reads run where they are.
        #expect(try store.withSnapshot { try store.withSnapshot { try store.get(id: "x") == nil } })
        try store.inTransaction {
            try store.create(id: "y", body: [:])
            #expect(try store.withSnapshot { try store.get(id: "y") != nil })
        }
    }
}
