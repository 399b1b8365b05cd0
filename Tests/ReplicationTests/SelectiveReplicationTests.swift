import CouchServer
import DocumentStore
import Foundation
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Replication
import DocumentFormat

/// Replications limited by document IDs or a Mango selector, in both directions, against the
/// real server over HTTP (which applies CouchDB's `_doc_ids` and `_selector` changes filters).
@Suite struct SelectiveReplicationTests {
    typealias Server = ServerReplicationTests.Server

    /// A store holding 6 recipes and 4 ingredients.
    private func mixedStore(_ dir: TemporaryDirectory, _ name: String) throws -> DocumentStore {
        let store = try DocumentStore(path: dir.path(name))
        for index in 0..<6 { _ = try store.create(id: "recipe-\(index)", body: ["type": "Recipe", "n": .int(Int64(index))]) }
        for index in 0..<4 { _ = try store.create(id: "ingredient-\(index)", body: ["type": "Ingredient", "n": .int(Int64(index))]) }
        return store
    }

    private func ids(_ store: DocumentStore) throws -> [String] {
        var ids: [String] = []
        _ = try store.forEachChange { ids.append($0.id) }
        return ids.sorted()
    }

    /// A server whose database `book` holds the mixed store's 10 documents.
    private func publishedBook() async throws -> (Server, TemporaryDirectory) {
        let server = try await Server()
        let dir = try TemporaryDirectory()
        var create = ReplicationOptions()
        create.createTarget = true
        _ = try await Sync(store: try mixedStore(dir, "origin.sqlite"), remoteURL: server.url("book")).push(options: create)
        return (server, dir)
    }

    @Test func aSelectorPullBringsExactlyTheMatchesAndWideningItBringsTheRest() async throws {
        try await withServer(publishedBook()) { server, dir in
            let copy = try DocumentStore(path: dir.path("copy.sqlite"))
            let sync = try Sync(store: copy, remoteURL: server.url("book"))
            var recipes = ReplicationOptions()
            recipes.selector = ["type": "Recipe", "n": ["$lt": 4]]
            #expect(try await sync.pull(options: recipes).docsWritten == 4)
            #expect(try ids(copy) == (0..<4).map { "recipe-\($0)" })
            // The same selector again moves nothing; a wider one has its own checkpoint and brings the rest.
            #expect(try await sync.pull(options: recipes).docsWritten == 0)
            var wider = ReplicationOptions()
            wider.selector = ["type": ["$in": ["Recipe", "Ingredient"]]]
            #expect(try await sync.pull(options: wider).docsWritten == 6)
            #expect(try ids(copy).count == 10)
        }
    }

    @Test func docIDsLimitAPullAndAPush() async throws {
        try await withServer(Server()) { server in
            let dir = try TemporaryDirectory()
            let origin = try mixedStore(dir, "origin.sqlite")
            var push = ReplicationOptions()
            push.createTarget = true
            push.docIDs = ["recipe-1", "ingredient-2", "absent"]
            #expect(try await Sync(store: origin, remoteURL: server.url("book")).push(options: push).docsWritten == 2)

            let copy = try DocumentStore(path: dir.path("copy.sqlite"))
            #expect(try await Sync(store: copy, remoteURL: server.url("book")).pull().docsWritten == 2)
            #expect(try ids(copy) == ["ingredient-2", "recipe-1"])

            // Push the rest, then pull only two of them by ID.
            _ = try await Sync(store: origin, remoteURL: server.url("book")).push()
            let picked = try DocumentStore(path: dir.path("picked.sqlite"))
            var pull = ReplicationOptions()
            pull.docIDs = ["recipe-4", "ingredient-0"]
            #expect(try await Sync(store: picked, remoteURL: server.url("book")).pull(options: pull).docsWritten == 2)
            #expect(try ids(picked) == ["ingredient-0", "recipe-4"])
        }
    }

    @Test func aSelectorPushSendsOnlyMatchingDocumentsAcrossPages() async throws {
        try await withServer(Server()) { server in
            let dir = try TemporaryDirectory()
            let origin = try mixedStore(dir, "origin.sqlite")
            var push = ReplicationOptions()
            push.createTarget = true
            push.batchSize = 3   // pages with no match at all must not end the run
            push.selector = ["type": "Ingredient"]
            let pushed = try await Sync(store: origin, remoteURL: server.url("book")).push(options: push)
            #expect(pushed.docsWritten == 4)
            let copy = try DocumentStore(path: dir.path("copy.sqlite"))
            _ = try await Sync(store: copy, remoteURL: server.url("book")).pull()
            #expect(try ids(copy) == (0..<4).map { "ingredient-\($0)" })
        }
    }

    @Test func aMalformedSelectorIsRefusedBeforeAnythingMoves() async throws {
        try await withServer(Server()) { server in
            let dir = try TemporaryDirectory()
            var push = ReplicationOptions()
            push.createTarget = true
            push.selector = ["type": ["$regexx": "R.*"]]
            let sync = try Sync(store: try mixedStore(dir, "origin.sqlite"), remoteURL: server.url("book"))
            await #expect {
                _ = try await sync.push(options: push)
            } throws: { error in
                guard case ReplicationError.invalidSelector(let reason) = error else { return false }
                return reason.contains("$regexx") && !reason.contains("\n")
            }
            var request = URLRequest(url: URL(string: server.url("book"))!)
            request.httpMethod = "GET"
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 404)
        }
    }

    @Test func theServerAnswersTheSelectorFilterAndRefusesAMissingOne() async throws {
        try await withServer(publishedBook()) { server, _ in
            func changes(_ method: String, _ body: String?) async throws -> (Int, JSONValue) {
                var request = URLRequest(url: URL(string: server.url("book") + "/_changes?filter=_selector&style=all_docs")!)
                request.httpMethod = method
                if let body {
                    request.httpBody = Data(body.utf8)
                    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                }
                let (data, response) = try await URLSession.shared.data(for: request)
                return ((response as? HTTPURLResponse)?.statusCode ?? 0, try JSONValue.parse(data))
            }
            let (status, reply) = try await changes("POST", #"{"selector":{"type":"Ingredient","n":{"$gte":2}}}"#)
            #expect(status == 200)
            let rows = reply.objectValue?["results"]?.arrayValue ?? []
            #expect(rows.compactMap { $0.objectValue?["id"]?.stringValue }.sorted() == ["ingredient-2", "ingredient-3"])
            #expect(reply.objectValue?["last_seq"] != nil)
            #expect(try await changes("GET", nil).0 == 400)
            #expect(try await changes("POST", #"{"selector":{"n":{"$nope":1}}}"#).0 == 400)
        }
    }
}
