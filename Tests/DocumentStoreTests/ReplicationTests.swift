import Foundation
import Testing
@testable import DocumentStore
import DocumentFormat

@Suite struct ReplicationTests {
    /// Two branches off 2-b: 3-x (one replica) and 3-y then 4-z (another).
    static let branchX = ReplicatedRevision(id: "doc", rev: rev("3-x"), body: ["from": "x"],
                                            history: [rev("3-x"), rev("2-b"), rev("1-a")])
    static let branchZ = ReplicatedRevision(id: "doc", rev: rev("4-z"), body: ["from": "z"],
                                            history: [rev("4-z"), rev("3-y"), rev("2-b"), rev("1-a")])

    @Test func twoBranchesMakeAConflictWithTheSameWinnerInAnyOrder() throws {
        let (one, d1) = try makeStore("one.sqlite")
        let (two, d2) = try makeStore("two.sqlite")
        _ = (d1, d2)
        try one.insertRevisions([Self.branchX, Self.branchZ])
        try two.insertRevisions([Self.branchZ])
        try two.insertRevisions([Self.branchX])
        for store in [one, two] {
            #expect(try store.get(id: "doc")?.rev == rev("4-z"))
            #expect(try store.conflicts(id: "doc") == [rev("3-x")])
            #expect(try store.leafRevisions(id: "doc").map(\.rev) == [rev("4-z"), rev("3-x")])
            #expect(try store.history(id: "doc", rev: rev("4-z")) == [rev("4-z"), rev("3-y"), rev("2-b"), rev("1-a")])
            #expect(try store.history(id: "doc", rev: rev("3-x")) == [rev("3-x"), rev("2-b"), rev("1-a")])
            // Ancestors arrived as stubs: in the tree, without bodies.
            #expect(try store.get(id: "doc", rev: rev("2-b")) == nil)
            #expect(try store.revsDiff(["doc": [rev("2-b"), rev("1-a")]]).isEmpty)
        }
    }

    @Test func winnerRulePrefersLiveThenGenerationThenHash() throws {
        let (store, directory) = try makeStore()
        _ = directory
        try store.insertRevisions([
            ReplicatedRevision(id: "d", rev: rev("2-aaa"), body: ["b": "aaa"], history: [rev("2-aaa"), rev("1-r")]),
            ReplicatedRevision(id: "d", rev: rev("2-bbb"), body: ["b": "bbb"], history: [rev("2-bbb"), rev("1-r")]),
        ])
        #expect(try store.get(id: "d")?.rev == rev("2-bbb"))
        // A deleted leaf of higher generation loses to a live one.
        try store.insertRevisions([ReplicatedRevision(id: "d", rev: rev("3-ccc"), deleted: true, body: [:],
                                                      history: [rev("3-ccc"), rev("2-bbb"), rev("1-r")])])
        #expect(try store.get(id: "d")?.rev == rev("2-aaa"))
        #expect(try store.conflicts(id: "d").isEmpty)
        // All leaves deleted: the document is gone from reads, but its leaves and changes remain.
        try store.insertRevisions([ReplicatedRevision(id: "d", rev: rev("3-ddd"), deleted: true, body: [:],
                                                      history: [rev("3-ddd"), rev("2-aaa"), rev("1-r")])])
        #expect(try store.get(id: "d") == nil)
        #expect(try store.leafRevisions(id: "d").map(\.rev) == [rev("3-ddd"), rev("3-ccc")])
        let change = try #require(try store.changes(since: 0, limit: 10).changes.first)
        #expect(change.deleted)
        #expect(change.revisions == [rev("3-ddd"), rev("3-ccc")])
        #expect(try store.find(Query(selector: [:])).isEmpty)
    }

    @Test func aRefusedRevisionIsReportedWhileTheRestOfTheBatchLands() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let good = ReplicatedRevision(id: "ok", rev: rev("1-aaa"), body: ["v": 1], history: [rev("1-aaa")])
        let bad = ReplicatedRevision(id: "bad", rev: rev("2-bbb"), body: [:], history: [rev("1-bbb")])
        let refusals = try store.insertRevisionsReportingRefusals([good, bad])
        #expect(refusals.map(\.id) == ["bad"])
        #expect(refusals.first?.rev == rev("2-bbb"))
        if case .invalidRevision = refusals.first?.error {} else { Issue.record("expected invalidRevision, got \(String(describing: refusals.first?.error))") }
        #expect(try store.get(id: "ok")?.rev == rev("1-aaa"))
        #expect(try store.insertRevisionsReportingRefusals([good]).isEmpty)
    }

    @Test func revisionsWithHistoryReadsManyInOneGo() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let first = try store.create(id: "a", body: ["v": 1])
        let second = try store.update(id: "a", parent: first.rev, body: ["v": 2])
        let other = try store.create(id: "b", body: ["w": 1])
        let read = try store.revisionsWithHistory([(id: "a", rev: second.rev), (id: "b", rev: other.rev),
                                                   (id: "a", rev: rev("9-nope")), (id: "zz", rev: other.rev)])
        #expect(read.count == 4)
        #expect(read[0]?.revision.body == ["v": 2])
        #expect(read[0]?.history == [second.rev, first.rev])
        #expect(read[1]?.revision.id == "b")
        #expect(read[1]?.history == [other.rev])
        #expect(read[2] == nil && read[3] == nil)
    }

    @Test func insertingAHeldRevisionIsANoOp() throws {
        let (store, directory) = try makeStore()
        _ = directory
        try store.insertRevisions([Self.branchX])
        let sequence = try store.lastSequence
        try store.insertRevisions([Self.branchX])
        #expect(try store.lastSequence == sequence)
        #expect(try store.leafRevisions(id: "doc").count == 1)
    }

    @Test func resolvingAConflictTombstonesTheLosers() throws {
        let (store, directory) = try makeStore()
        _ = directory
        try store.insertRevisions([Self.branchX, Self.branchZ])
        try store.resolveConflicts(id: "doc", keeping: rev("3-x"))
        #expect(try store.conflicts(id: "doc").isEmpty)
        let leaves = try store.leafRevisions(id: "doc")
        #expect(leaves.first?.rev == rev("3-x"))
        #expect(leaves.dropFirst().allSatisfy { $0.deleted })
        #expect(try store.get(id: "doc")?.body == ["from": "x"])
        #expect(throws: DocumentStoreError.conflict(id: "doc")) {
            try store.resolveConflicts(id: "doc", keeping: rev("9-nope"))
        }
    }

    @Test func locallyMadeRevisionsReplicateWithTheirHistory() throws {
        let (source, d1) = try makeStore("source.sqlite")
        let (target, d2) = try makeStore("target.sqlite")
        _ = (d1, d2)
        let one = try source.create(id: "r", body: ["v": 1],
                                    attachments: [.put(name: "t.txt", contentType: "text/plain", data: Data("abc".utf8))])
        let two = try source.update(id: "r", parent: one.rev, body: ["v": 2])
        let diff = try target.revsDiff(["r": [two.rev]])
        #expect(diff["r"]?.missing == [two.rev])
        let history = try source.history(id: "r", rev: two.rev)
        let attachment = try #require(try source.attachment(id: "r", name: "t.txt"))
        try target.insertRevisions([ReplicatedRevision(
            id: "r", rev: two.rev, body: two.body, history: history,
            attachments: ["t.txt": .data(contentType: "text/plain", data: attachment.data, revpos: attachment.info.revpos)])])
        var expected = try #require(try source.get(id: "r"))
        expected.sequence = 1
        #expect(try target.get(id: "r") == expected)
        // The target can now take a child made on the source with only a stub for the attachment.
        let three = try source.update(id: "r", parent: two.rev, body: ["v": 3])
        try target.insertRevisions([ReplicatedRevision(
            id: "r", rev: three.rev, body: three.body, history: try source.history(id: "r", rev: three.rev),
            attachments: ["t.txt": .stub(attachment.info)])])
        #expect(try target.attachment(id: "r", name: "t.txt")?.data == Data("abc".utf8))
        // Further local edits on the target hash the same way as on the source.
        let fourHere = try target.update(id: "r", parent: three.rev, body: ["v": 4])
        let fourThere = try source.update(id: "r", parent: three.rev, body: ["v": 4])
        #expect(fourHere.rev == fourThere.rev)
    }

    @Test func stubForUnknownAttachmentIsRefused() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let info = AttachmentInfo(contentType: "image/png", length: 3, digest: "md5-AAAAAAAAAAAAAAAAAAAAAA==", revpos: 1)
        #expect(throws: DocumentStoreError.missingAttachment(id: "p", name: "img", digest: info.digest)) {
            try store.insertRevisions([ReplicatedRevision(id: "p", rev: rev("1-a"), body: [:],
                                                          attachments: ["img": .stub(info)])])
        }
        #expect(try store.leafRevisions(id: "p").isEmpty)
    }

    @Test func revsDiffReportsMissingAndPossibleAncestors() throws {
        let (store, directory) = try makeStore()
        _ = directory
        try store.insertRevisions([Self.branchX])   // leaves: 3-x
        try store.insertRevisions([ReplicatedRevision(id: "other", rev: rev("1-q"), body: [:])])
        let diff = try store.revsDiff([
            "doc": [rev("3-x"), rev("5-new"), rev("2-b"), rev("3-zzz")],
            "other": [rev("1-q")],
            "unknown": [rev("1-u"), rev("2-v")],
        ])
        #expect(diff["doc"] == RevsDiffEntry(missing: [rev("5-new"), rev("3-zzz")], possibleAncestors: [rev("3-x")]))
        #expect(diff["other"] == nil)
        #expect(diff["unknown"] == RevsDiffEntry(missing: [rev("1-u"), rev("2-v")], possibleAncestors: []))
        // A missing revision no newer than every leaf has no possible ancestors.
        #expect(try store.revsDiff(["doc": [rev("2-other")]])["doc"]
            == RevsDiffEntry(missing: [rev("2-other")], possibleAncestors: []))
    }
}

@Suite struct StubTests {
    @Test func aStubAncestorGetsItsBodyWhenItArrives() throws {
        let (store, directory) = try makeStore()
        _ = directory
        try store.insertRevisions([ReplicationTests.branchX])
        #expect(try store.get(id: "doc", rev: rev("2-b")) == nil)
        try store.insertRevisions([ReplicatedRevision(id: "doc", rev: rev("2-b"), body: ["from": "b"],
                                                      history: [rev("2-b"), rev("1-a")])])
        #expect(try store.get(id: "doc", rev: rev("2-b"))?.body == ["from": "b"])
        #expect(try store.leafRevisions(id: "doc").map(\.rev) == [rev("3-x")])
        #expect(try store.get(id: "doc")?.body == ["from": "x"])
    }

    @Test func defaultRevisionLimitIsAThousand() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let history = (1...1005).reversed().map { RevisionID(generation: $0, hash: "g\($0)") }
        try store.insertRevisions([ReplicatedRevision(id: "long", rev: history[0], body: [:], history: history)])
        let kept = try store.history(id: "long", rev: history[0])
        #expect(kept.count == 1000)
        #expect(kept.last == RevisionID(generation: 6, hash: "g6"))
        let next = try store.update(id: "long", parent: history[0], body: ["n": 1])
        #expect(try store.history(id: "long", rev: next.rev).count == 1000)
    }
}
