import Foundation
import Testing
@testable import DocumentStore
import TestSupport
import DocumentFormat

@Suite struct ChangesFeedTests {
    @Test func eachDocumentAppearsOnceAtItsLatestChange() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let a = try store.create(id: "a", body: ["v": 1])            // seq 1
        let b = try store.create(id: "b", body: ["v": 1])            // seq 2
        try store.create(id: "c", body: ["v": 1])                    // seq 3
        let a2 = try store.update(id: "a", parent: a.rev, body: ["v": 2])   // seq 4
        let bGone = try store.delete(id: "b", parent: b.rev)          // seq 5
        try store.putLocal(id: "checkpoint", body: ["seq": 5])        // not a change

        let all = try store.changes(since: 0, limit: 100)
        let c = try #require(try store.get(id: "c"))
        #expect(all.changes == [
            Change(sequence: 3, id: "c", deleted: false, revisions: [c.rev]),
            Change(sequence: 4, id: "a", deleted: false, revisions: [a2.rev]),
            Change(sequence: 5, id: "b", deleted: true, revisions: [bGone.rev]),
        ])
        #expect(all.lastSequence == 5)
        #expect(try store.lastSequence == 5)
        #expect(a2.sequence == 4)
        #expect(try store.get(id: "a")?.sequence == 4)

        let first = try store.changes(since: 0, limit: 2)
        #expect(first.changes.map(\.id) == ["c", "a"])
        #expect(first.lastSequence == 4)
        let rest = try store.changes(since: first.lastSequence, limit: 2)
        #expect(rest.changes.map(\.id) == ["b"])
        let none = try store.changes(since: rest.lastSequence, limit: 2)
        #expect(none.changes.isEmpty)
        #expect(none.lastSequence == 5)
    }

    @Test func pagesListEveryLeafWinnerFirstAndCountWhatRemains() throws {
        let (store, directory) = try makeStore()
        _ = directory
        for index in 0..<5 { try store.create(id: "p\(index)", body: ["v": .int(Int64(index))]) }
        let root = try #require(RevisionID("1-root"))
        let live = try #require(RevisionID("2-aaa"))
        let other = try #require(RevisionID("2-bbb"))
        let gone = try #require(RevisionID("3-ccc"))
        try store.insertRevisions([
            ReplicatedRevision(id: "q", rev: live, body: ["b": 1], history: [live, root]),
            ReplicatedRevision(id: "q", rev: other, body: ["b": 2], history: [other, root]),
            ReplicatedRevision(id: "q", rev: gone, deleted: true, body: [:], history: [gone, other, root]),
        ])
        let page = try store.changes(since: 3, limit: 10)
        #expect(page.changes.map(\.id) == ["p3", "p4", "q"])
        #expect(page.changes.last?.revisions == [live, gone])
        #expect(try store.changeCount(since: 0) == 6)
        #expect(try store.changeCount(since: 3) == 3)
        #expect(try store.changeCount(since: page.lastSequence) == 0)
    }

    @Test func sequencesOnlyGrowAcrossReopen() throws {
        let directory = try TemporaryDirectory()
        let store = try DocumentStore(path: directory.path())
        var parent = try store.create(id: "x", body: ["v": 0]).rev
        for value in 1...5 { parent = try store.update(id: "x", parent: parent, body: ["v": .int(Int64(value))]).rev }
        try store.close()
        let reopened = try DocumentStore(path: directory.path())
        #expect(try reopened.lastSequence == 6)
        let next = try reopened.create(id: "y", body: [:])
        #expect(next.sequence == 7)
    }
}
