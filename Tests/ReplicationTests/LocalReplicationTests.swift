import DocumentStore
import Foundation
import Testing
@testable import Replication
import TestSupport
import DocumentFormat

/// Replication between two local store files: the embedded default, no server.
@Suite struct LocalReplicationTests {
    func replicate(_ from: DocumentStore, _ to: DocumentStore, options: ReplicationOptions = .init(),
                   observer: (@Sendable (ReplicationProgress) -> Void)? = nil) async throws -> ReplicationSummary {
        try await Replicator(source: LocalDatabase(store: from), target: LocalDatabase(store: to), options: options,
                             observer: observer).run()
    }

    @Test func copiesDocumentsUpdatesDeletionsAndAttachmentsBothWays() async throws {
        let dir = try TemporaryDirectory()
        let a = try DocumentStore(path: dir.path("a.sqlite"))
        let b = try DocumentStore(path: dir.path("b.sqlite"))
        var revs: [String: DocumentRevision] = [:]
        for index in 0..<40 {
            let attachments: [AttachmentChange] = index % 5 == 0
                ? [.put(name: "thumbnailImage", contentType: "image/jpeg", data: testBytes(20_000 + index, seed: UInt64(index)))] : []
            revs["r\(index)"] = try a.create(id: "r\(index)", body: recipeBody(index), attachments: attachments)
        }
        _ = try a.update(id: "r1", parent: revs["r1"]!.rev, body: recipeBody(1, name: "Renamed"))
        _ = try a.delete(id: "r2", parent: revs["r2"]!.rev)
        let log = ProgressLog()
        let first = try await replicate(a, b, options: { var o = ReplicationOptions(); o.batchSize = 7; return o }(),
                                        observer: { log.record($0) })
        #expect(first.docsWritten == 40 && first.docsFailed == 0 && first.startSequence == nil)
        #expect(first.endSequence?.value == .int(try a.lastSequence))
        #expect(try StoreSnapshot(a) == StoreSnapshot(b))
        #expect(try b.get(id: "r2") == nil)
        #expect(try b.get(id: "r1")?.body["name"] == "Renamed")
        for index in stride(from: 0, to: 40, by: 5) {
            #expect(try b.attachment(id: "r\(index)", name: "thumbnailImage")?.data == testBytes(20_000 + index, seed: UInt64(index)))
        }
        #expect(log.all.last?.state == .completed)
        #expect(log.all.last?.docsWritten == 40)
        #expect(log.all.contains { $0.state == .running && $0.changesProcessed == 7 })
        #expect(log.all.contains { $0.changesProcessed == 7 && ($0.totalChangesEstimate ?? 0) >= 40 })

        // Nothing new: nothing read, nothing written, start = previous end.
        let again = try await replicate(a, b)
        #expect(again.docsRead == 0 && again.docsWritten == 0 && again.startSequence == first.endSequence)

        // B edits (including an attachment change on a document whose other data A has): back to A.
        let r5 = try b.get(id: "r5")!
        _ = try b.update(id: "r5", parent: r5.rev, body: recipeBody(5, name: "Edited on B"),
                         attachments: [.put(name: "extra", contentType: "text/plain", data: Data("hello".utf8))])
        _ = try b.create(id: "fromB", body: recipeBody(99))
        let back = try await replicate(b, a)
        #expect(back.docsWritten >= 2)
        #expect(try StoreSnapshot(a) == StoreSnapshot(b))
        #expect(try a.attachment(id: "r5", name: "extra")?.data == Data("hello".utf8))
        #expect(try a.attachment(id: "r5", name: "thumbnailImage")?.data == testBytes(20_005, seed: 5))
    }

    @Test func concurrentEditsGiveTheSameWinnerAndConflictsEverywhere() async throws {
        let dir = try TemporaryDirectory()
        let a = try DocumentStore(path: dir.path("a.sqlite"))
        let b = try DocumentStore(path: dir.path("b.sqlite"))
        let base = try a.create(id: "shared", body: recipeBody(1))
        _ = try await replicate(a, b)
        _ = try a.update(id: "shared", parent: base.rev, body: recipeBody(1, name: "A's name"))
        _ = try b.update(id: "shared", parent: base.rev, body: recipeBody(1, name: "B's name"))
        _ = try await replicate(a, b)
        _ = try await replicate(b, a)
        #expect(try a.get(id: "shared")?.rev == b.get(id: "shared")?.rev)
        #expect(try a.conflicts(id: "shared") == b.conflicts(id: "shared"))
        #expect(try a.conflicts(id: "shared").count == 1)
        #expect(try StoreSnapshot(a) == StoreSnapshot(b))
    }

    @Test func aLargeAttachmentArrivesByteEqual() async throws {
        let dir = try TemporaryDirectory()
        let a = try DocumentStore(path: dir.path("a.sqlite"))
        let b = try DocumentStore(path: dir.path("b.sqlite"))
        let big = testBytes(5 * 1024 * 1024, seed: 42)
        _ = try a.create(id: "photo", body: ["CDTISEntityName": "Image"], attachments: [.put(name: "image", contentType: "image/png", data: big)])
        let summary = try await replicate(a, b)
        #expect(summary.bytesTransferred == big.count)
        #expect(try b.attachment(id: "photo", name: "image")?.data == big)
    }

    @Test func cancelledRunResumesFromItsCheckpointAndCopiesOnlyTheRest() async throws {
        let dir = try TemporaryDirectory()
        let a = try DocumentStore(path: dir.path("a.sqlite"))
        let b = try DocumentStore(path: dir.path("b.sqlite"))
        for index in 0..<60 { _ = try a.create(id: "d\(index)", body: recipeBody(index)) }
        var options = ReplicationOptions()
        options.batchSize = 10
        let replicator = Replicator(source: LocalDatabase(store: a), target: LocalDatabase(store: b), options: options)
        let holder = Locked<Task<ReplicationSummary, Error>?>(nil)
        let cancelling = Replicator(source: LocalDatabase(store: a), target: LocalDatabase(store: b), options: options) { progress in
            if progress.state == .running, progress.docsWritten >= 10 { holder.withLock { $0?.cancel() } }
        }
        // The task is made and recorded under the lock, so a progress callback that runs before
        // the assignment waits for it instead of finding nothing to cancel.
        let task = holder.withLock { slot in
            let task = Task { try await cancelling.run() }
            slot = task
            return task
        }
        await #expect(throws: ReplicationError.cancelled) { _ = try await task.value }
        let copied = try b.documentCount()
        #expect(copied >= 10 && copied < 60)
        let resumed = try await replicator.run()
        #expect(resumed.startSequence != nil)
        #expect(resumed.docsWritten == 60 - copied)
        #expect(try StoreSnapshot(a) == StoreSnapshot(b))
        #expect(replicator.replicationID == cancelling.replicationID)
    }

    @Test func filtersAndReplicationIDs() async throws {
        let dir = try TemporaryDirectory()
        let a = try DocumentStore(path: dir.path("a.sqlite"))
        let b = try DocumentStore(path: dir.path("b.sqlite"))
        _ = try a.create(id: "CDTIS-Recipe-1", body: recipeBody(1))
        _ = try a.create(id: "CDTIS-Ingredient-1", body: ["name": "salt"])
        var options = ReplicationOptions()
        options.filter = .idPrefixes(["CDTIS-Recipe-"])
        let filtered = Replicator(source: LocalDatabase(store: a), target: LocalDatabase(store: b), options: options)
        let plain = Replicator(source: LocalDatabase(store: a), target: LocalDatabase(store: b))
        let reverse = Replicator(source: LocalDatabase(store: b), target: LocalDatabase(store: a))
        #expect(Set([filtered.replicationID, plain.replicationID, reverse.replicationID]).count == 3)
        let summary = try await filtered.run()
        #expect(summary.docsWritten == 1 && summary.changesProcessed == 2)
        #expect(try b.get(id: "CDTIS-Recipe-1") != nil && b.get(id: "CDTIS-Ingredient-1") == nil)
        #expect(try b.getLocal(id: filtered.replicationID)?["source_last_seq"] == .int(try a.lastSequence))
        #expect(try a.getLocal(id: filtered.replicationID)?["history"]?.arrayValue?.count == 1)
    }
}
