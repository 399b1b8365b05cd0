import DocumentStore
import Foundation
import Testing
@testable import Replication
import TestSupport
import DocumentFormat

/// `_design/<name>` documents travel like any other: local → server → local, with edits,
/// attachments (fetched under the `_design/name` URL) and deletion.
@Suite struct DesignDocumentReplicationTests {
    @Test func aDesignDocumentReplicatesLocalToServerToLocal() async throws {
        try await withServer(ServerReplicationTests.Server()) { server in
            let dir = try TemporaryDirectory()
            let a = try DocumentStore(path: dir.path("a.sqlite"))
            let b = try DocumentStore(path: dir.path("b.sqlite"))
            let manual = testBytes(200_000, seed: 5)
            _ = try a.create(id: "_design/recipes", body: ["language": "javascript", "views": ["byName": ["map": "function(doc){}"]]],
                             attachments: [.put(name: "manual.bin", contentType: "application/octet-stream", data: manual)])
            _ = try a.create(id: "CDTIS-Recipe-1", body: recipeBody(1))
            var push = ReplicationOptions()
            push.createTarget = true
            let fromA = try Sync(store: a, remoteURL: server.url("app"))
            let fromB = try Sync(store: b, remoteURL: server.url("app"))
            let pushed = try await fromA.push(options: push)
            #expect(pushed.docsWritten == 2 && pushed.docsFailed == 0)

            let pulled = try await fromB.pull()
            #expect(pulled.docsWritten == 2 && pulled.docsFailed == 0)
            #expect(try b.get(id: "_design/recipes")?.body["language"] == "javascript")
            #expect(try b.attachment(id: "_design/recipes", name: "manual.bin")?.data == manual)

            // An edit on the other side comes back; a deletion follows it.
            let current = try #require(try b.get(id: "_design/recipes"))
            var body = current.body
            body["language"] = "query"
            _ = try b.update(id: current.id, parent: current.rev, body: body)
            let back = try await fromB.sync()
            #expect(back.push.docsWritten == 1 && back.push.docsFailed == 0)
            _ = try await fromA.pull()
            let edited = try #require(try a.get(id: "_design/recipes"))
            #expect(edited.body["language"] == "query" && edited.rev.generation == 2)
            #expect(try a.attachment(id: "_design/recipes", name: "manual.bin")?.data == manual)
            _ = try a.delete(id: edited.id, parent: edited.rev)
            _ = try await fromA.push()
            _ = try await fromB.pull()
            #expect(try b.get(id: "_design/recipes") == nil)
            #expect(try StoreSnapshot(a) == StoreSnapshot(b))
        }
    }
}
