import CouchServer
import DocumentStore
import Foundation
import Replication
import Testing
import TestSupport
import DocumentFormat

/// A document the target refuses is not forgotten when the checkpoint moves past it: the
/// checkpoint lists it, every later run offers it again and reports it, until it is copied
/// or changed. The target is the in-process server with a 64 KB request limit, which refuses
/// a larger document with 413 as CouchDB does past its `max_document_size`.
@Suite struct RefusedDocumentTests {
    static let limit = 64 * 1024

    static func largeBody() -> JSONObject {
        var body = recipeBody(99)
        body["notes"] = .string(String(repeating: "n", count: 2 * limit))
        return body
    }

    @Test func aRefusedDocumentIsOfferedAgainByEveryPushUntilItIsChanged() async throws {
        try await withServer(ServerReplicationTests.Server(maxRequestBodySize: Self.limit)) { server in
            let dir = try TemporaryDirectory()
            let store = try DocumentStore(path: dir.path("a.sqlite"))
            _ = try store.create(id: "small-1", body: recipeBody(1))
            let large = try store.create(id: "large", body: Self.largeBody())
            _ = try store.create(id: "small-2", body: recipeBody(2))
            var options = ReplicationOptions()
            options.createTarget = true
            let sync = try Sync(store: store, remoteURL: server.url("refusals"))
            let remote = try CouchDatabase(url: server.url("refusals"))

            let first = try await sync.push(options: options)
            #expect(first.docsWritten == 2 && first.docsFailed == 1, "\(first)")
            #expect(first.outstandingRefusals.map(\.id) == ["large"], "\(first.outstandingRefusals)")
            #expect(first.outstandingRefusals.first?.error == "too_large")
            #expect(try await remote.databaseInfo().documentCount == 2)
            // The local checkpoint copy lists it, so another process's next sync knows too.
            let checkpoint = try #require(try store.getLocal(id: first.replicationID))
            #expect(checkpoint["refused"]?.arrayValue?.first?.objectValue?["id"] == "large", "\(checkpoint)")

            // Nothing new since: the refused document alone is offered again, and refused again.
            let second = try await sync.push(options: options)
            #expect(second.docsWritten == 0 && second.docsFailed == 1, "\(second)")
            #expect(second.outstandingRefusals.map(\.id) == ["large"])
            #expect(second.changesProcessed == 0)

            // Another document changing does not drop it.
            _ = try store.create(id: "small-3", body: recipeBody(3))
            let third = try await sync.push(options: options)
            #expect(third.docsWritten == 1 && third.outstandingRefusals.map(\.id) == ["large"], "\(third)")

            // Changed to fit, it goes, with its history, and nothing is outstanding any more.
            let fixed = try store.update(id: "large", parent: large.rev, body: recipeBody(99))
            let fourth = try await sync.push(options: options)
            #expect(fourth.docsWritten == 1 && fourth.outstandingRefusals.isEmpty, "\(fourth)")
            #expect(try await remote.databaseInfo().documentCount == 4)
            #expect(try await remote.currentLeaves(of: ["large"], selector: nil)["large"] == [fixed.rev])
            #expect(try store.getLocal(id: fourth.replicationID)?["refused"] == nil)
            let fifth = try await sync.push(options: options)
            #expect(fifth.docsWritten == 0 && fifth.docsFailed == 0 && fifth.outstandingRefusals.isEmpty)
        }
    }

    @Test func aRefusedDocumentDeletedLocallyIsSettledByItsTombstone() async throws {
        try await withServer(ServerReplicationTests.Server(maxRequestBodySize: Self.limit)) { server in
            let dir = try TemporaryDirectory()
            let store = try DocumentStore(path: dir.path("a.sqlite"))
            let large = try store.create(id: "large", body: Self.largeBody())
            var options = ReplicationOptions()
            options.createTarget = true
            let sync = try Sync(store: store, remoteURL: server.url("deleted"))
            #expect(try await sync.push(options: options).outstandingRefusals.map(\.id) == ["large"])
            _ = try store.delete(id: "large", parent: large.rev)
            let after = try await sync.push(options: options)
            #expect(after.outstandingRefusals.isEmpty && after.docsWritten == 1, "\(after)")
        }
    }

    @Test func aLocalPeerListsTheLeavesOfTheDocumentsAskedFor() async throws {
        let dir = try TemporaryDirectory()
        let store = try DocumentStore(path: dir.path("a.sqlite"))
        let one = try store.create(id: "one", body: ["kind": "a"])
        let two = try store.create(id: "two", body: ["kind": "b"])
        _ = try store.delete(id: "two", parent: two.rev)
        let local = LocalDatabase(store: store)
        let leaves = try await local.currentLeaves(of: ["one", "two", "absent"], selector: nil)
        #expect(leaves.keys.sorted() == ["one", "two"])
        #expect(leaves["one"] == [one.rev])
        let selected = try await local.currentLeaves(of: ["one", "two"], selector: try DocumentSelector(["kind": "a"]))
        #expect(selected.keys.sorted() == ["one"])
    }
}
