import CouchServer
import DocumentStore
import Foundation
import Logging
import Replication
import Testing
import DocumentFormat

/// Runs the steps of the Replication catalog's article "Syncing with CouchDB"
/// (`Sources/Replication/Documentation.docc/SyncingWithCouchDB.md`) against an in-process
/// CouchDB-compatible server, so its code keeps compiling and doing what the article says.
/// Change both together.
@Suite("Documentation: syncing with CouchDB")
struct GettingStartedArticleTests {
    @Test func twoStoresSyncAndSettleAConflict() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("replication-article-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var logger = Logger(label: "article-server")
        logger.logLevel = .critical
        let server = CouchServer(configuration: CouchServerConfiguration(
            dataDirectory: folder.appendingPathComponent("server"), port: 0,
            credentials: ServerCredentials(user: "admin", password: "s3cret")), logger: logger)
        let port = try await server.start()
        let remoteURL = "http://admin:s3cret@127.0.0.1:\(port)/kitchen"

        // Step 1: a store with a document, pushed to a database that does not exist yet.
        let laptop = try DocumentStore(url: folder.appendingPathComponent("laptop.sqlite"))
        try laptop.create(id: "soup", body: ["name": "Tomato Soup", "minutes": 25])
        let laptopSync = try Sync(store: laptop, remoteURL: remoteURL)
        var options = ReplicationOptions()
        options.createTarget = true
        let pushed = try await laptopSync.push(options: options)
        #expect(pushed.docsWritten == 1)

        // Step 2: a second store pulls it.
        let phone = try DocumentStore(url: folder.appendingPathComponent("phone.sqlite"))
        let phoneSync = try Sync(store: phone, remoteURL: remoteURL)
        let first = try await phoneSync.sync()
        #expect(first.pull.docsWritten == 1)
        #expect(try phone.get(id: "soup")?.body["name"] == "Tomato Soup")

        // Step 3: both edit the same document before syncing again.
        let onLaptop = try #require(try laptop.get(id: "soup"))
        try laptop.update(id: "soup", parent: onLaptop.rev, body: ["name": "Tomato Soup", "minutes": 30])
        let onPhone = try #require(try phone.get(id: "soup"))
        try phone.update(id: "soup", parent: onPhone.rev, body: ["name": "Roast Tomato Soup", "minutes": 25])
        _ = try await laptopSync.sync()
        _ = try await phoneSync.sync()
        _ = try await laptopSync.sync()

        // Step 4: both hold the same two leaves and agree on the winner.
        let conflicts = try laptop.conflicts(id: "soup")
        #expect(conflicts.count == 1)
        #expect(try phone.conflicts(id: "soup") == conflicts)
        let winner = try #require(try laptop.get(id: "soup"))
        #expect(try phone.get(id: "soup")?.rev == winner.rev)

        // Step 5: settle it (keep the winner) and sync the resolution.
        try laptop.resolveConflicts(id: "soup", keeping: winner.rev)
        _ = try await laptopSync.sync()
        _ = try await phoneSync.sync()
        #expect(try laptop.conflicts(id: "soup").isEmpty)
        #expect(try phone.conflicts(id: "soup").isEmpty)
        #expect(try phone.get(id: "soup")?.rev == winner.rev)

        // Step 6: keep syncing until caught up (a program would keep iterating).
        var events: [String] = []
        for await event in laptopSync.live() {
            events.append("\(event)")
            if case .caughtUp = event { break }
        }
        #expect(!events.isEmpty)

        await server.stop()
    }
}
