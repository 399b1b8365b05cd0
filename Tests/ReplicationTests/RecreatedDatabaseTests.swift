import CouchServer
import DocumentStore
import Foundation
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Replication

/// A remote database deleted and created again under the same name is a new database: a
/// pull must not resume from a checkpoint recorded against the old one (issue #9).
@Suite struct RecreatedDatabaseTests {
    typealias Server = ServerReplicationTests.Server

    /// Sends one authenticated request to the server and returns its status.
    private func send(_ method: String, _ url: String) async throws -> Int {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.setValue("Basic " + Data("admin:pw".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    private func pushOptions() -> ReplicationOptions {
        var options = ReplicationOptions()
        options.createTarget = true
        return options
    }

    /// Pull `pl`; delete and recreate it; push 3 new recipes from another store; pull again:
    /// the 3 recipes arrive. Run as a reader the server lets keep a checkpoint (admin) and as
    /// one it refuses (anonymous, so only the local copy exists and says the peer refused).
    @Test(arguments: [true, false])
    func pullAfterTheRemoteWasRecreatedStartsOver(authenticated: Bool) async throws {
        try await withServer(Server(credentials: ServerCredentials(user: "admin", password: "pw"), anonymousAccess: .reads)) { server in
            let dir = try TemporaryDirectory()
            let admin = server.url("pl", user: "admin", password: "pw")
            let first = try DocumentStore(path: dir.path("first.sqlite"))
            for index in 0..<5 { _ = try first.create(id: "old-\(index)", body: recipeBody(index)) }
            _ = try await Sync(store: first, remoteURL: admin).push(options: pushOptions())

            let puller = try DocumentStore(path: dir.path("puller.sqlite"))
            let pull = try Sync(store: puller, remoteURL: authenticated ? admin : server.url("pl"))
            let initial = try await pull.pull()
            #expect(initial.docsWritten == 5)
            #expect(initial.checkpointRefused == !authenticated)

            #expect(try await send("DELETE", server.url("pl")) == 200)
            #expect(try await send("PUT", server.url("pl")) == 201)
            let second = try DocumentStore(path: dir.path("second.sqlite"))
            for index in 0..<3 { _ = try second.create(id: "new-\(index)", body: recipeBody(100 + index)) }
            #expect(try await Sync(store: second, remoteURL: admin).push(options: pushOptions()).docsWritten == 3)

            let again = try await pull.pull()
            #expect(again.startSequence == nil)
            #expect(again.docsWritten == 3)
            for index in 0..<3 { #expect(try puller.get(id: "new-\(index)") != nil) }

            // Now both sides agree again, and the next pull resumes where this one ended.
            let third = try await pull.pull()
            #expect(third.startSequence == again.endSequence && third.docsRead == 0)
        }
    }
}
