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
        let seen = try store.withSnapshot { snapshot throws -> (before: Int, after: Int, found: Bool) in
            let before = try snapshot.find(Query(selector: ["kind": "item"])).count
            try other.create(id: "b", body: ["kind": "item"])
            return (before, try snapshot.find(Query(selector: ["kind": "item"])).count, try snapshot.get(id: "b") != nil)
        }
        #expect(seen.before == 1 && seen.after == 1 && !seen.found)
        #expect(try store.find(Query(selector: ["kind": "item"])).count == 2)
    }

    @Test func whatTheBodyThrowsComesOutAsItIs() throws {
        let (store, directory) = try makeStore()
        _ = directory
        #expect(throws: Stop()) { try store.withSnapshot { _ throws -> Int in throw Stop() } }
        #expect(throws: Stop()) { try store.inTransaction { _ throws -> Int in throw Stop() } }
    }

    @Test func aTransactionCommitsTogetherAndItsReadsSeeItsWrites() throws {
        let (store, directory) = try makeStore()
        let other = try DocumentStore(path: directory.path("store.sqlite"))
        try store.inTransaction { transaction in
            try transaction.create(id: "y", body: [:])
            try transaction.create(id: "z", body: [:])
            #expect(try transaction.get(id: "y") != nil)
            // Another connection sees nothing until it commits.
            #expect(try other.get(id: "y") == nil)
        }
        #expect(try other.documentCount() == 2)
        #expect(throws: Stop()) {
            try store.inTransaction { transaction in
                try transaction.create(id: "w", body: [:])
                throw Stop()
            }
        }
        #expect(try store.get(id: "w") == nil)
    }
}
