import DocumentStore
import Foundation
import InteropSupport
import Testing
import TestSupport
import DocumentFormat

/// CouchDB 3's own replicator (`POST /_replicate` on a live CouchDB) pulling from and pushing
/// to a real `recipes serve` process, over real HTTP: every document, leaf revision, body and
/// attachment byte arrives, and a second replication finds its checkpoints and moves nothing.
@Suite("CouchDB's replicator against recipes serve", .serialized,
       .enabled(if: LiveCouchDB.isConfigured, "COUCHDB_URL is not set: no live CouchDB to run its replicator against recipes serve"))
struct CouchReplicatorInteropTests {
    /// A `recipes serve` holding the sample recipes (with their images, pushed by `recipes
    /// sync`) and the hard cases of ``InteropDocuments`` in database `recipes`.
    static func filledServer(_ sandbox: Sandbox) async throws -> (ServedDatabase, HTTPTestClient, [String: String]) {
        let served = try await ServedDatabase(in: sandbox)
        let seeded = try await sandbox.run(["list", "--json", "--store", sandbox.path("a.sqlite"), "--remote", served.url()])
        #expect(seeded.status == 0, "\(seeded)")
        let client = HTTPTestClient(port: served.port)
        let auth = HTTPTestClient.basic(ServedDatabase.user, ServedDatabase.password)
        try await InteropDocuments.write(into: "recipes", client: client, auth: auth)
        return (served, client, auth)
    }

    /// Expects two snapshots to be equal, listing what differs.
    static func expectSame(_ ours: DatabaseSnapshot, _ theirs: DatabaseSnapshot, sourceLocation: SourceLocation = #_sourceLocation) {
        let differences = ours.differences(from: theirs)
        #expect(differences.isEmpty, "\(differences.prefix(20).joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    /// The number of documents the replicator says it wrote, from its reply's newest history entry.
    static func docsWritten(_ reply: JSONObject) -> Int64? {
        reply["history"]?.arrayValue?.first?.objectValue?["docs_written"]?.intValue
    }

    @Test("CouchDB's replicator pulls every revision and attachment from recipes serve; a second run moves nothing")
    func couchPullsFromServe() async throws {
        let couch = try await LiveCouchDB.connect()
        let sandbox = try Sandbox("couch-pull")
        let (served, client, auth) = try await Self.filledServer(sandbox)
        try await couch.withDatabase("pull") { target in
            let first = try await couch.replicate(from: served.url(), to: couch.databaseURL(target))
            let ours = try await DatabaseSnapshot.read("recipes", client: client, auth: auth)
            let theirs = try await DatabaseSnapshot.read(target, client: couch.client, auth: couch.auth)
            Self.expectSame(ours, theirs)
            #expect(ours.leaves.count > 60 && ours.attachments.count >= 16, "\(ours)")
            #expect(Self.docsWritten(first) ?? 0 > 0, "\(first)")

            let second = try await couch.replicate(from: served.url(), to: couch.databaseURL(target))
            #expect(second["no_changes"] == true || Self.docsWritten(second) == 0, "\(second)")
            Self.expectSame(ours, try await DatabaseSnapshot.read(target, client: couch.client, auth: couch.auth))
        }
    }

    @Test("CouchDB's replicator pushes every revision and attachment to recipes serve; a second run moves nothing")
    func couchPushesToServe() async throws {
        let couch = try await LiveCouchDB.connect()
        try await couch.withDatabase("push") { source in
            try await InteropDocuments.write(into: source, client: couch.client, auth: couch.auth)
            let sandbox = try Sandbox("couch-push")
            try await withServer(ServedDatabase(in: sandbox)) { served in
                let client = HTTPTestClient(port: served.port)
                let auth = HTTPTestClient.basic(ServedDatabase.user, ServedDatabase.password)

                let first = try await couch.replicate(from: couch.databaseURL(source), to: served.url("pushed"), extra: ["create_target": true])
                let theirs = try await DatabaseSnapshot.read(source, client: couch.client, auth: couch.auth)
                let ours = try await DatabaseSnapshot.read("pushed", client: client, auth: auth)
                Self.expectSame(theirs, ours)
                #expect(theirs.leaves.count == InteropDocuments.ids.count, "\(theirs)")
                #expect(Self.docsWritten(first) ?? 0 > 0, "\(first)")

                let second = try await couch.replicate(from: couch.databaseURL(source), to: served.url("pushed"))
                #expect(second["no_changes"] == true || Self.docsWritten(second) == 0, "\(second)")

                // What CouchDB pushed reads back through our own client: a store synced from the
                // server shows the same documents and leaves.
                let synced = try await sandbox.run(["sync", "--pull-only", "--json", "--no-samples", "--store", sandbox.path("b.sqlite"), "--remote", served.url("pushed")])
                #expect(synced.status == 0, "\(synced)")
            }
        }
    }
}
