import DocumentStore
import Foundation
import InteropSupport
import Testing
import TestSupport
import DocumentFormat

/// The `recipes` program syncing with a live CouchDB (`COUCHDB_URL`) as a user runs it: real
/// processes, real HTTP. Timeouts are hang guards only; nothing asserts a latency.
@Suite("recipes sync with a live CouchDB", .serialized,
       .enabled(if: LiveCouchDB.isConfigured, "COUCHDB_URL is not set: no live CouchDB to sync with"))
struct CouchDBSyncTests {
    @Test("sync --live with CouchDB: a recipe added on one machine reaches the other and CouchDB; SIGINT exits 130")
    func liveSync() async throws {
        let couch = try await LiveCouchDB.connect()
        try await couch.withDatabase("live") { database in
            let sandbox = try Sandbox("couch-live")
            let a = ["--store", sandbox.path("a.sqlite"), "--no-samples", "--remote", couch.databaseURL(database)]
            let b = ["--store", sandbox.path("b.sqlite"), "--no-samples", "--remote", couch.databaseURL(database)]
            let liveA = try await LiveSyncTests.startLive(sandbox, a)
            let liveB = try await LiveSyncTests.startLive(sandbox, b)

            let added = try await sandbox.run(["add", "--name", "Couch Soup", "--ingredient", "1|leek", "--image", sandbox.write("pic.png", TestFixtures.pngBytes)] + a)
            #expect(added.status == 0, "\(added)")
            #expect(try await LiveSyncTests.waitForRecipe("Couch Soup", sandbox, b), "B never got the recipe: \(liveA.stdout) \(liveB.stdout)")
            // The recipe can arrive before its image, whose attachment reaches CouchDB in a
            // request of its own: B edits it as soon as it is there, image or not, and shows
            // the image once that arrives.
            let edited = try await sandbox.run(["edit", "Couch Soup", "--name", "Couch Leek Soup"] + b)
            #expect(edited.status == 0, "\(edited)")
            let imaged = try await waitUntil(timeout: 180, interval: .milliseconds(100)) {
                let shown = try await sandbox.run(["show", "Couch Leek Soup", "--json"] + b)
                let image = (try? shown.json() as? [String: Any])?["image"] as? [String: Any]
                return shown.status == 0 && image?["bytes"] as? Int == TestFixtures.pngBytes.count
            }
            #expect(imaged, "B never got the recipe's image")
            #expect(try await LiveSyncTests.waitForRecipe("Couch Leek Soup", sandbox, a))

            // A document written straight into CouchDB by someone else arrives too.
            let status = try #require(try await sandbox.run(["status", "--json"] + a).json() as? [String: Any])
            for live in [liveA, liveB] {
                live.signal(SIGINT)
                #expect(await live.waitForExit(timeout: 60), "the live sync did not stop on SIGINT")
                let result = try await live.finish()
                #expect(result.status == 130, "\(result)")
            }
            let info = try await couch.send("GET", "/\(database)").json().objectValue
            #expect(info?["doc_count"]?.intValue == Int64(status["documents"] as? Int ?? -1), "\(String(describing: info)) \(status)")
            let store = try DocumentStore(path: sandbox.path("a.sqlite"))
            let local = try DatabaseSnapshot(store: store)
            try store.close()
            let remote = try await DatabaseSnapshot.read(database, client: couch.client, auth: couch.auth)
            #expect(local.differences(from: remote).isEmpty, "\(local.differences(from: remote))")
        }
    }

    @Test("a database the original app wrote (its CDTISMetaData, a recipe with its thumbnail, a conflict) syncs, lists and takes edits")
    func foreignDocuments() async throws {
        let couch = try await LiveCouchDB.connect()
        try await couch.withDatabase("foreign") { database in
            // The documents the original app's incremental store wrote, as CouchDB's replicator
            // carried them (recorded from CouchDB 3.4.3), inserted with their own revisions.
            // The metadata document describes the recipes model, as the original app writes it.
            let documents = try ForeignDatabase.documents().map { document -> JSONValue in
                guard document.objectValue?["_id"] == "CDTISMetaData", var object = document.objectValue else { return document }
                object.merge(OriginalAppMetadata.body) { $1 }
                return .object(object)
            }
            let written = try await couch.send("POST", "/\(database)/_bulk_docs", json: ["new_edits": false, "docs": .array(documents)])
            #expect(written.status == 201, "\(String(decoding: written.body, as: UTF8.self))")
            let metadataBefore = try await couch.send("GET", "/\(database)/CDTISMetaData").json().objectValue?["_rev"]

            let sandbox = try Sandbox("couch-foreign")
            let machine = ["--store", sandbox.path("a.sqlite"), "--remote", couch.databaseURL(database)]
            let listed = try await sandbox.run(["list", "--json"] + machine)
            #expect(listed.status == 0, "\(listed)")
            let names = (try listed.json() as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(names.contains("Chocolate Cake"), "\(names)")
            #expect(!names.contains("Banana Bread"), "samples were seeded into a database that already had recipes: \(names)")
            let shown = try await sandbox.run(["show", "Chocolate Cake", "--json"] + machine)
            #expect(shown.status == 0, "\(shown)")

            #expect(try await sandbox.run(["edit", "Chocolate Cake", "--overview", "Edited by recipes"] + machine).status == 0)
            let synced = try await sandbox.run(["sync", "--json"] + machine)
            #expect(synced.status == 0, "\(synced)")
            let cake = try await couch.send("GET", "/\(database)/\(ForeignDatabase.recipeID)?conflicts=true").json().objectValue
            #expect(cake?["overview"] == "Edited by recipes" && cake?["_conflicts"] == nil, "\(String(describing: cake))")
            #expect(cake?["_attachments"]?.objectValue?["thumbnailImage"] != nil, "\(String(describing: cake))")
            // The other client's metadata document is left as it wrote it.
            let metadataAfter = try await couch.send("GET", "/\(database)/CDTISMetaData?conflicts=true").json().objectValue
            #expect(metadataAfter?["_rev"] == metadataBefore && metadataAfter?["_conflicts"] == nil, "\(String(describing: metadataAfter))")
        }
    }
}

/// The original app's database, as recorded from CouchDB 3.4.3 (`Tests/Fixtures/couchdb-3.4.3`).
enum ForeignDatabase {
    static let recipeID = "CDTIS-Recipe-22222222-2222-4222-8222-222222222222"

    /// Every document of the recorded `src` database with its revision history, ready for
    /// `_bulk_docs` with `new_edits: false`: the leaves CouchDB's replicator fetched, and the
    /// recipe again with its thumbnail inline (a stub cannot be inserted without its bytes).
    static func documents() throws -> [JSONValue] {
        var byRevision: [String: JSONValue] = [:]
        for file in ["couch-replicator-pulls-from-server.jsonl", "endpoints.jsonl"] {
            let url = CLIBinary.packageRoot.appendingPathComponent("Tests/Fixtures/couchdb-3.4.3/\(file)")
            for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
                let exchange = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
                guard let path = exchange.objectValue?["request"]?.objectValue?["path"]?.stringValue,
                      path.hasPrefix("/src/_bulk_get"),
                      let body = exchange.objectValue?["response"]?.objectValue?["body"]?.stringValue,
                      let results = try JSONDecoder().decode(JSONValue.self, from: Data(body.utf8)).objectValue?["results"]?.arrayValue
                else { continue }
                for result in results {
                    for found in result.objectValue?["docs"]?.arrayValue ?? [] {
                        guard let document = found.objectValue?["ok"]?.objectValue, let id = document["_id"]?.stringValue,
                              let rev = document["_rev"]?.stringValue else { continue }
                        let inline = document["_attachments"]?.objectValue?.values.allSatisfy { $0.objectValue?["data"] != nil } ?? true
                        if inline || byRevision["\(id) \(rev)"] == nil { byRevision["\(id) \(rev)"] = .object(document) }
                    }
                }
            }
        }
        let documents = byRevision.keys.sorted().compactMap { byRevision[$0] }
        guard documents.contains(where: { $0.objectValue?["_id"] == "CDTISMetaData" }) else {
            throw LiveCouchDBError("the recorded traffic holds no CDTISMetaData document")
        }
        return documents.filter { document in
            document.objectValue?["_attachments"]?.objectValue?.values.allSatisfy { $0.objectValue?["data"] != nil } ?? true
        }
    }
}
