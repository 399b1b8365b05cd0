import DocumentStore
import Foundation
import InteropSupport
import Testing
import TestSupport
import DocumentFormat

/// `recipes sync` when the remote refuses a document as too large: the sync says so and
/// exits 3, the document stays pending in `status` with the reason, every later sync offers
/// it again, and once it is changed to fit it goes and nothing is pending. Real processes,
/// real HTTP; the document is written straight into the store, as `add` refuses one that
/// large (`RecipeLimits`), the way an older version or another app could have written it.
@Suite("recipes sync with a document the remote refuses", .serialized)
struct RefusedDocumentSyncTests {
    static let documentID = "oversize-note"

    @Test("recipes serve, its request limit lowered to 1 MB, refuses a 2 MB document")
    func throughServe() async throws {
        let sandbox = try Sandbox("refused-serve")
        try await withServer(ServedDatabase(in: sandbox, arguments: ["--max-body-mb", "1"])) { server in
            try await Self.scenario(sandbox, remote: server.url(), oversize: 2_000_000) {
                try await server.get("/recipes")["doc_count"] as? Int
            }
        }
    }

    @Test("CouchDB refuses a document over its default 8,000,000-byte max_document_size",
          .enabled(if: LiveCouchDB.isConfigured, "COUCHDB_URL is not set: no live CouchDB to refuse the document"))
    func throughCouchDB() async throws {
        let couch = try await LiveCouchDB.connect()
        // The test server may have raised the limit; CouchDB's own default is 8,000,000.
        let setting = "/_node/_local/_config/couchdb/max_document_size"
        let previous = try await couch.send("PUT", setting, json: "8000000")
        #expect(previous.status == 200, "\(String(decoding: previous.body, as: UTF8.self))")
        let database = try await couch.makeDatabase("refused")
        let sandbox = try Sandbox("refused-couch")
        do {
            try await Self.scenario(sandbox, remote: couch.databaseURL(database), oversize: 8_500_000) {
                try await couch.send("GET", "/\(database)").json().objectValue?["doc_count"]?.intValue.map { Int($0) }
            }
        } catch {
            Issue.record(error)
        }
        if let old = try? previous.json() { _ = try await couch.send("PUT", setting, json: old) }
        await couch.deleteDatabase(database)
    }

    static func scenario(_ sandbox: Sandbox, remote: String, oversize: Int,
                         remoteCount: () async throws -> Int?) async throws {
        let machine = ["--store", sandbox.path("a.sqlite"), "--no-samples", "--remote", remote]
        let added = try await sandbox.run(["add", "--name", "Small Soup", "--ingredient", "1|leek"] + machine)
        #expect(added.status == 0, "\(added)")
        let store = try DocumentStore(path: sandbox.path("a.sqlite"))
        let large = try store.create(id: documentID, body: ["notes": .string(String(repeating: "x", count: oversize))])
        try store.close()

        for attempt in 1...2 {
            let synced = try await sandbox.run(["sync", "--json"] + machine)
            #expect(synced.status == 3, "attempt \(attempt): \(synced)")
            #expect(synced.stderr.contains("refused: \(documentID) (push)"), "attempt \(attempt): \(synced.stderr)")
            let report = try #require(try synced.json() as? [String: Any])
            #expect(report["result"] as? String == "succeeded" && report["refused"] as? Int == 1, "\(report)")
            let refused = report["refusedDocuments"] as? [[String: Any]]
            #expect(refused?.first?["id"] as? String == documentID && refused?.count == 1, "\(report)")

            let status = try #require(try await sandbox.run(["status", "--json"] + machine).json() as? [String: Any])
            #expect(status["pendingChanges"] as? Int == 1, "attempt \(attempt): \(status)")
            let listed = status["refused"] as? [[String: Any]]
            #expect(listed?.first?["id"] as? String == documentID, "\(status)")
            #expect(listed?.first?["error"] as? String == "too_large", "\(status)")
            let text = try await sandbox.run(["status"] + machine)
            #expect(text.stdout.contains("refused:    \(documentID) (push): too_large"), "\(text.stdout)")
            #expect(try await remoteCount() == (status["documents"] as? Int ?? 0) - 1)
        }

        // Changed to fit, it goes, and nothing is pending any more.
        let reopened = try DocumentStore(path: sandbox.path("a.sqlite"))
        _ = try reopened.update(id: documentID, parent: large.rev, body: ["notes": "short now"])
        try reopened.close()
        let fixed = try await sandbox.run(["sync", "--json"] + machine)
        #expect(fixed.status == 0, "\(fixed)")
        #expect((try fixed.json() as? [String: Any])?["refused"] as? Int == 0, "\(fixed)")
        let status = try #require(try await sandbox.run(["status", "--json"] + machine).json() as? [String: Any])
        #expect(status["pendingChanges"] as? Int == 0 && (status["refused"] as? [Any])?.isEmpty == true, "\(status)")
        #expect(try await remoteCount() == status["documents"] as? Int)
    }
}
