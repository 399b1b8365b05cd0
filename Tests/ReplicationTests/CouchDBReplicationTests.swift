import DocumentStore
import Foundation
import InteropSupport
import Testing
@testable import Replication
import TestSupport
import DocumentFormat

/// Our replicator against a live CouchDB (`COUCHDB_URL`), both ways: every ID, leaf revision,
/// body and attachment byte equal on both sides, deletions and conflicts carried, checkpoints
/// kept on CouchDB so a second run moves nothing; selective replication with CouchDB's own
/// `_doc_ids` and `_selector` filters.
@Suite("Our replicator against a live CouchDB", .serialized,
       .enabled(if: LiveCouchDB.isConfigured, "COUCHDB_URL is not set: no live CouchDB to replicate with"))
struct CouchDBReplicationTests {
    static func expectSame(_ one: DatabaseSnapshot, _ other: DatabaseSnapshot, sourceLocation: SourceLocation = #_sourceLocation) {
        let differences = one.differences(from: other)
        #expect(differences.isEmpty, "\(differences.prefix(20).joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    @Test("a pull from CouchDB, then a push of the same store to a new CouchDB database, carry everything; again, nothing")
    func pullThenPushCarryEverything() async throws {
        let couch = try await LiveCouchDB.connect()
        try await couch.withDatabase("source") { source in
            try await couch.withDatabase("copy") { copy in
                try await InteropDocuments.write(into: source, client: couch.client, auth: couch.auth)
                let dir = try TemporaryDirectory()
                let store = try DocumentStore(path: dir.path("local.sqlite"))

                let pulled = try await Sync(store: store, remoteURL: couch.databaseURL(source)).pull()
                let onCouch = try await DatabaseSnapshot.read(source, client: couch.client, auth: couch.auth)
                Self.expectSame(onCouch, try DatabaseSnapshot(store: store))
                #expect(pulled.docsWritten == onCouch.leaves.values.map(\.count).reduce(0, +) && pulled.docsFailed == 0, "\(pulled)")
                #expect(try store.conflicts(id: "conflicted").count == 1)
                #expect(try store.attachment(id: "large-attachment", name: "photo.jpg")?.data == InteropDocuments.largeAttachment)

                // Local edits on top: an update, a deletion, a new document with an attachment.
                let winner = try #require(try store.get(id: "small-attachment"))
                var body = winner.body
                body["kind"] = "note, edited here"
                _ = try store.update(id: winner.id, parent: winner.rev, body: body)
                let escaped = try #require(try store.get(id: "recette d'été/1"))
                _ = try store.delete(id: escaped.id, parent: escaped.rev)
                _ = try store.create(id: "made-here", body: ["kind": "local"],
                                     attachments: [.put(name: "pic.png", contentType: "image/png", data: testBytes(80_000, seed: 3))])

                let pushed = try await Sync(store: store, remoteURL: couch.databaseURL(copy)).push()
                #expect(pushed.docsFailed == 0, "\(pushed)")
                let local = try DatabaseSnapshot(store: store)
                Self.expectSame(local, try await DatabaseSnapshot.read(copy, client: couch.client, auth: couch.auth))
                #expect(local.deleted.contains("recette d'été/1") && local.leaves["conflicted"]?.count == 2)

                // The edits also go back to where the documents came from, and nothing moves twice.
                let sync = try Sync(store: store, remoteURL: couch.databaseURL(source))
                let both = try await sync.sync()
                #expect(both.pull.docsWritten == 0 && both.push.docsFailed == 0, "\(both)")
                Self.expectSame(local, try await DatabaseSnapshot.read(source, client: couch.client, auth: couch.auth))
                let again = try await sync.sync()
                #expect(again.pull.docsWritten == 0 && again.push.docsWritten == 0, "\(again)")
            }
        }
    }

    @Test("a conflict made on two sides converges: pulled, resolved here, pushed; CouchDB ends with one live leaf")
    func conflictsConverge() async throws {
        let couch = try await LiveCouchDB.connect()
        try await couch.withDatabase("conflict") { database in
            let dir = try TemporaryDirectory()
            let store = try DocumentStore(path: dir.path("local.sqlite"))
            let base = try store.create(id: "shared", body: ["v": 0])
            let sync = try Sync(store: store, remoteURL: couch.databaseURL(database))
            _ = try await sync.push()
            _ = try store.update(id: "shared", parent: base.rev, body: ["v": 1, "by": "us"])
            let theirs = try await couch.send("PUT", "/\(database)/shared", json: ["_rev": .string(base.rev.description), "v": 2, "by": "them"])
            #expect(theirs.status == 201)

            _ = try await sync.sync()
            let leaves = try await DatabaseSnapshot.read(database, client: couch.client, auth: couch.auth).leaves["shared"]
            let localLeaves = try DatabaseSnapshot(store: store).leaves["shared"]
            #expect(leaves?.count == 2 && leaves == localLeaves)

            // Resolving here (keep the winner CouchDB chose, delete the other leaf) reaches CouchDB.
            let winner = try #require(try store.get(id: "shared"))
            try store.resolveConflicts(id: "shared", keeping: winner.rev)
            _ = try await sync.sync()
            let reply = try await couch.send("GET", "/\(database)/shared?conflicts=true")
            let document = try #require(try reply.json().objectValue)
            #expect(document["_rev"] == .string(winner.rev.description) && document["_conflicts"] == nil, "\(document)")
        }
    }

    @Test("selective pulls use CouchDB's _doc_ids and _selector filters and bring exactly what they name")
    func selectiveReplication() async throws {
        let couch = try await LiveCouchDB.connect()
        try await couch.withDatabase("selective") { database in
            var docs: [JSONValue] = []
            for index in 0..<6 { docs.append(["_id": .string("recipe-\(index)"), "type": "Recipe", "n": .int(Int64(index))]) }
            for index in 0..<4 { docs.append(["_id": .string("ingredient-\(index)"), "type": "Ingredient", "n": .int(Int64(index))]) }
            #expect(try await couch.send("POST", "/\(database)/_bulk_docs", json: ["docs": .array(docs)]).status == 201)
            let dir = try TemporaryDirectory()

            let byID = try DocumentStore(path: dir.path("ids.sqlite"))
            var ids = ReplicationOptions()
            ids.docIDs = ["recipe-1", "ingredient-2", "absent"]
            #expect(try await Sync(store: byID, remoteURL: couch.databaseURL(database)).pull(options: ids).docsWritten == 2)
            #expect(Set(try DatabaseSnapshot(store: byID).leaves.keys) == ["recipe-1", "ingredient-2"])

            let bySelector = try DocumentStore(path: dir.path("selector.sqlite"))
            let sync = try Sync(store: bySelector, remoteURL: couch.databaseURL(database))
            var recipes = ReplicationOptions()
            recipes.selector = ["type": "Recipe", "n": ["$lt": 4]]
            #expect(try await sync.pull(options: recipes).docsWritten == 4)
            #expect(Set(try DatabaseSnapshot(store: bySelector).leaves.keys) == Set((0..<4).map { "recipe-\($0)" }))
            #expect(try await sync.pull(options: recipes).docsWritten == 0)

            // A push limited by a selector: only the matching local documents reach CouchDB.
            _ = try bySelector.create(id: "local-recipe", body: ["type": "Recipe", "n": 99])
            _ = try bySelector.create(id: "local-note", body: ["type": "Note"])
            var push = ReplicationOptions()
            push.selector = ["type": "Recipe", "n": ["$gte": 99]]
            #expect(try await sync.push(options: push).docsWritten == 1)
            #expect(try await couch.send("GET", "/\(database)/local-recipe").status == 200)
            #expect(try await couch.send("GET", "/\(database)/local-note").status == 404)
        }
    }
}

/// What the interop tests do when `COUCHDB_URL` names no server: fail at once, saying which.
@Suite("A live CouchDB that is not there")
struct UnreachableCouchDBTests {
    @Test("an unreachable COUCHDB_URL is one error line naming the URL, with its password masked (a 5 s timeout bounds the wait)")
    func unreachableNamesTheURL() async throws {
        // A port nothing listens on: bind one, note it, close it.
        let reserved = try TemporaryPort()  // refused for as long as the test runs
        let port = reserved.number
        let error = await #expect(throws: LiveCouchDBError.self) {
            try await LiveCouchDB.connect(to: "http://admin:s3cret@127.0.0.1:\(port)", timeout: 5)
        }
        let message = error?.description ?? ""
        #expect(message.contains("http://admin:***@127.0.0.1:\(port)") && !message.contains("s3cret") && !message.contains("\n"), "\(message)")
        #expect(message.contains("unreachable"), "\(message)")
        await #expect(throws: LiveCouchDBError.self) { try await LiveCouchDB.connect(to: "admin:s3cret@127.0.0.1:5984") }
        withExtendedLifetime(reserved) {}
    }
}
