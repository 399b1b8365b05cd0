import Foundation
import Testing
@testable import DocumentStore
import TestSupport
import DocumentFormat

@Suite struct CompactionTests {
    @Test func compactionDropsOldBodiesButKeepsTheTree() throws {
        let (store, directory) = try makeStore()
        let oldData = Data("old".utf8)
        let one = try store.create(id: "a", body: ["v": 1], attachments: [.put(name: "f", contentType: "text/plain", data: oldData)])
        let two = try store.update(id: "a", parent: one.rev, body: ["v": 2],
                                   attachments: [.put(name: "f", contentType: "text/plain", data: Data("new".utf8))])
        #expect(try store.get(id: "a", rev: one.rev) != nil)
        try store.compact()
        #expect(try store.get(id: "a", rev: one.rev) == nil)
        #expect(try store.get(id: "a")?.rev == two.rev)
        #expect(try store.history(id: "a", rev: two.rev) == [two.rev, one.rev])
        #expect(try store.revsDiff(["a": [one.rev]]).isEmpty)
        #expect(try store.hasAttachment(digest: RevisionHasher.attachmentDigest(oldData)) == false)
        #expect(try store.attachment(id: "a", name: "f")?.data == Data("new".utf8))
        #expect(try countRows(directory.path(), "SELECT count(*) FROM revs") == 2)
    }

    @Test("compact() inside withWriter(_:) runs on the held writer connection (the server's POST /db/_compact)")
    func compactionInsideWithWriter() async throws {
        let (store, _) = try makeStore()
        let one = try store.create(id: "a", body: ["v": 1])
        let two = try store.update(id: "a", parent: one.rev, body: ["v": 2])
        try await store.withWriter { try $0.compact() }
        #expect(try store.get(id: "a", rev: one.rev) == nil)
        #expect(try store.get(id: "a")?.rev == two.rev)
    }

    @Test func revisionLimitPrunesDeepAncestors() throws {
        var options = DocumentStore.Options()
        options.revisionLimit = 5
        let (store, directory) = try makeStore(options: options)
        var current = try store.create(id: "deep", body: ["v": 0]).rev
        var all = [current]
        for value in 1..<12 {
            current = try store.update(id: "deep", parent: current, body: ["v": .int(Int64(value))]).rev
            all.append(current)
        }
        let history = try store.history(id: "deep", rev: current)
        #expect(history == Array(all.suffix(5).reversed()))
        #expect(try countRows(directory.path(), "SELECT count(*) FROM revs") == 5)
        #expect(try store.get(id: "deep")?.body == ["v": 11])
        // A replicated revision with a long history keeps only the limit too.
        let long = (1...20).reversed().map { RevisionID(generation: $0, hash: "h\($0)") }
        try store.insertRevisions([ReplicatedRevision(id: "long", rev: long[0], body: [:], history: long)])
        #expect(try store.history(id: "long", rev: long[0]) == Array(long.prefix(5)))
    }

    @Test func conflictBranchesKeepTheirOwnAncestry() throws {
        var options = DocumentStore.Options()
        options.revisionLimit = 3
        let (store, directory) = try makeStore(options: options)
        _ = directory
        let trunk = (1...4).reversed().map { RevisionID(generation: $0, hash: "t\($0)") }
        try store.insertRevisions([ReplicatedRevision(id: "d", rev: trunk[0], body: ["b": "t"], history: trunk)])
        let branch = [RevisionID(generation: 3, hash: "b3")] + Array(trunk.suffix(2))
        try store.insertRevisions([ReplicatedRevision(id: "d", rev: branch[0], body: ["b": "b"], history: branch)])
        #expect(try store.history(id: "d", rev: trunk[0]) == Array(trunk.prefix(3)))
        #expect(try store.history(id: "d", rev: branch[0]).first == branch[0])
        #expect(try store.conflicts(id: "d") == [branch[0]])
    }
}
