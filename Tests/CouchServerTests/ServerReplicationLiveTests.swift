import DocumentFormat
import Foundation
import InteropSupport
import Testing
import TestSupport

/// Server-side replication against a live CouchDB 3.4.3: `recipes serve` pulls from it with
/// `POST /_replicate`, and its replies, tasks and scheduler entries have CouchDB's shapes.
@Suite("CouchServer server-side replication against a live CouchDB",
       .enabled(if: LiveCouchDB.isConfigured, "COUCHDB_URL is not set: no live CouchDB to replicate from and compare with"))
struct ServerReplicationLiveTests {
    /// Writes `count` small documents into the CouchDB database `name`.
    static func seed(_ couch: LiveCouchDB, _ name: String, count: Int) async throws {
        let docs = (0..<count).map { JSONValue.object(["_id": .string("doc\($0)"), "n": .int(Int64($0))]) }
        let reply = try await couch.send("POST", "/\(name)/_bulk_docs", json: ["docs": .array(docs)])
        #expect(reply.status == 201)
    }

    @Test("POST /_replicate pulls a CouchDB database into recipes serve, by URL and by CouchDB's object form")
    func pullFromCouchDB() async throws {
        let couch = try await LiveCouchDB.connect()
        try await couch.withDatabase("serve-pull") { name in
            try await Self.seed(couch, name, count: 12)
            try await withServer(TestServer.start()) { server in
                let reply = try await ServerReplicationTests.replicate(
                    server, ["source": .string(couch.databaseURL(name)), "target": "pulled", "create_target": true])
                #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
                let history = try #require(try reply.json().objectValue?["history"]?.arrayValue?.first?.objectValue)
                #expect(history["docs_written"] == 12)
                #expect(try await ServerReplicationTests.count(server, "pulled") == 12)
                #expect(!String(decoding: reply.body, as: UTF8.self).contains(":password@"))

                var components = URLComponents(url: couch.url, resolvingAgainstBaseURL: false)!
                components.user = nil
                components.password = nil
                let plain = components.url!.absoluteString + "/" + name
                let objectForm = try await ServerReplicationTests.replicate(
                    server, ["source": ["url": .string(plain), "headers": ["Authorization": .string(couch.auth["Authorization"] ?? "")]],
                             "target": "pulled2", "create_target": true])
                #expect(objectForm.status == 200, "\(String(decoding: objectForm.body, as: UTF8.self))")
                #expect(try await ServerReplicationTests.count(server, "pulled2") == 12)
            }
        }
    }

    /// The reply of `POST /_replicate` on both servers for the same request shape.
    static func both(_ couch: LiveCouchDB, _ server: TestServer, _ body: JSONValue) async throws -> (HTTPReply, HTTPReply) {
        let theirs = try await couch.sendReplication(body)
        let ours = try await ServerReplicationTests.replicate(server, body)
        return (theirs, ours)
    }

    @Test("Replies, _active_tasks, _scheduler/jobs and _scheduler/docs have the same fields as CouchDB's")
    func differentialShapes() async throws {
        let couch = try await LiveCouchDB.connect()
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let source = "shape-src-\(suffix)"
        let targets = ["shape-a-\(suffix)", "shape-b-\(suffix)", "shape-c-\(suffix)"]
        let docID = "shape-\(suffix)"
        try await couch.deletingDatabase(source) {
            try await withServer(TestServer.start()) { server in
                #expect(try await couch.send("PUT", "/\(source)").status == 201)
                try await Self.seed(couch, source, count: 3)
                try await ServerReplicationTests.seed(server, source, count: 3)

                // One-shot between two local databases, on each server.
                let (theirs, ours) = try await Self.both(couch, server, ["source": .string(source), "target": .string(targets[0]), "create_target": true])
                #expect(theirs.status == ours.status)
                let theirReply = try #require(try theirs.json().objectValue)
                let ourReply = try #require(try ours.json().objectValue)
                #expect(Set(ourReply.keys) == Set(theirReply.keys))
                let theirHistory = theirReply["history"]?.arrayValue?.first?.objectValue ?? [:]
                let ourHistory = ourReply["history"]?.arrayValue?.first?.objectValue ?? [:]
                #expect(Set(ourHistory.keys) == Set(theirHistory.keys))
                #expect(ourHistory["docs_written"] == theirHistory["docs_written"])
                #expect(ourHistory["missing_checked"] == theirHistory["missing_checked"])

                // Cancelling what does not run.
                let (theirCancel, ourCancel) = try await Self.both(couch, server, ["source": "nope", "target": "nope2", "cancel": true])
                #expect(theirCancel.status == ourCancel.status)
                #expect(try theirCancel.json() == ourCancel.json())

                // A continuous job: its reply, task and scheduler entries.
                let body: JSONValue = ["source": .string(source), "target": .string(targets[1]), "create_target": true, "continuous": true]
                let (theirContinuous, ourContinuous) = try await Self.both(couch, server, body)
                #expect(Set(try theirContinuous.json().objectValue?.keys ?? [:].keys) == Set(try ourContinuous.json().objectValue?.keys ?? [:].keys))
                // CouchDB lists `through_seq` once its job has processed a change.
                #expect(try await waitUntil(timeout: 30) {
                    try await couch.send("GET", "/_active_tasks").json().arrayValue?
                        .contains { $0.objectValue?["type"] == "replication" && $0.objectValue?["through_seq"] != nil } == true
                })
                #expect(try await waitUntil(timeout: 30) { try await ServerReplicationTests.get(server, "/_active_tasks").arrayValue?.isEmpty == false })
                let theirTask = try await couch.send("GET", "/_active_tasks").json().arrayValue?
                    .first { $0.objectValue?["type"] == "replication" && $0.objectValue?["through_seq"] != nil }?.objectValue ?? [:]
                let ourTask = try await ServerReplicationTests.get(server, "/_active_tasks").arrayValue?.first?.objectValue ?? [:]
                #expect(Set(ourTask.keys) == Set(theirTask.keys))
                let theirJobs = try await couch.send("GET", "/_scheduler/jobs").json().objectValue ?? [:]
                let ourJobs = try await ServerReplicationTests.get(server, "/_scheduler/jobs").objectValue ?? [:]
                #expect(Set(ourJobs.keys) == Set(theirJobs.keys))
                let theirJob = theirJobs["jobs"]?.arrayValue?.first?.objectValue ?? [:]
                let ourJob = ourJobs["jobs"]?.arrayValue?.first?.objectValue ?? [:]
                #expect(Set(ourJob.keys) == Set(theirJob.keys))
                _ = try await couch.send("POST", "/_replicate", json: ["replication_id": try theirContinuous.json().objectValue?["_local_id"] ?? .null, "cancel": true])
                _ = try await ServerReplicationTests.replicate(server, ["replication_id": try ourContinuous.json().objectValue?["_local_id"] ?? .null, "cancel": true])

                // A _replicator document's _scheduler/docs entry, once running. CouchDB 3.4.3
                // takes only URLs there.
                let couchSource = couch.databaseURL(source)
                let couchTarget = couch.databaseURL(targets[2])
                let put = try await couch.send("PUT", "/_replicator/\(docID)", json: ["source": .string(couchSource), "target": .string(couchTarget), "continuous": true, "create_target": true])
                #expect(put.status == 201)
                let ourPut = try await server.client.send(
                    "PUT", "/_replicator/\(docID)", json: ["source": .string(source), "target": .string(targets[2]), "continuous": true, "create_target": true],
                    headers: server.auth)
                #expect(ourPut.status == 201)
                #expect(try await waitUntil(timeout: 30) {
                    try await couch.send("GET", "/_scheduler/docs/_replicator/\(docID)").json().objectValue?["state"] == "running"
                })
                #expect(try await waitUntil(timeout: 30) {
                    try await ServerReplicationTests.schedulerDoc(server, docID)?["state"] == "running"
                })
                let theirDoc = try await couch.send("GET", "/_scheduler/docs/_replicator/\(docID)").json().objectValue ?? [:]
                let ourDoc = try await ServerReplicationTests.schedulerDoc(server, docID) ?? [:]
                #expect(Set(ourDoc.keys) == Set(theirDoc.keys))
                if let rev = try put.json().objectValue?["rev"]?.stringValue {
                    _ = try await couch.send("DELETE", "/_replicator/\(docID)?rev=\(rev)")
                }
            }
        }
        for target in targets { await couch.deleteDatabase(target) }
    }
}
