import CouchServer
import DocumentFormat
import Foundation
import InteropSupport
import Logging
import Testing
import TestSupport

/// Server-side replication in `recipes serve`: `POST /_replicate`, the `_replicator`
/// database, `_active_tasks` and `_scheduler/*`, over real HTTP. Every wait polls an
/// observable state with a deadline.
@Suite("CouchServer server-side replication")
struct ServerReplicationTests {
    /// Writes `count` documents `prefix0`, `prefix1`, … into `db` (created when missing).
    static func seed(_ server: TestServer, _ db: String, count: Int, prefix: String = "doc") async throws {
        _ = try await server.client.send("PUT", "/\(db)", headers: server.auth)
        let docs = (0..<count).map { JSONValue.object(["_id": .string("\(prefix)\($0)"), "n": .int(Int64($0))]) }
        let reply = try await server.client.send("POST", "/\(db)/_bulk_docs", json: ["docs": .array(docs)], headers: server.auth)
        #expect(reply.status == 201)
    }

    /// The live document count of `db`, or -1 when it does not exist.
    static func count(_ server: TestServer, _ db: String) async throws -> Int {
        let reply = try await server.client.send("GET", "/\(db)", headers: server.auth)
        guard reply.status == 200 else { return -1 }
        return Int(try reply.json().objectValue?["doc_count"]?.intValue ?? -1)
    }

    /// `POST /_replicate` as the administrator.
    static func replicate(_ server: TestServer, _ body: JSONValue, headers: [String: String]? = nil) async throws -> HTTPReply {
        try await server.client.send("POST", "/_replicate", json: body, headers: headers ?? server.auth)
    }

    /// `GET path` as the administrator, as JSON.
    static func get(_ server: TestServer, _ path: String) async throws -> JSONValue {
        try await server.client.send("GET", path, headers: server.auth).json()
    }

    /// The `_scheduler/docs` entry of `_replicator` document `id`, when there is one.
    static func schedulerDoc(_ server: TestServer, _ id: String) async throws -> JSONObject? {
        let reply = try await server.client.send("GET", "/_scheduler/docs/_replicator/\(id)", headers: server.auth)
        return reply.status == 200 ? try reply.json().objectValue : nil
    }

    @Test("A one-shot local-to-local POST /_replicate copies everything and answers CouchDB's reply")
    func oneShotLocal() async throws {
        try await withServer(TestServer.start()) { server in
            try await Self.seed(server, "src", count: 5)
            let reply = try await Self.replicate(server, ["source": "src", "target": "tgt", "create_target": true])
            #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
            let json = try #require(try reply.json().objectValue)
            #expect(json["ok"] == true)
            #expect(json["session_id"]?.stringValue != nil)
            #expect(json["source_last_seq"] != nil)
            let history = try #require(json["history"]?.arrayValue?.first?.objectValue)
            #expect(history["docs_read"] == 5)
            #expect(history["docs_written"] == 5)
            #expect(history["doc_write_failures"] == 0)
            #expect(history["missing_checked"] == 5)
            #expect(history["missing_found"] == 5)
            #expect(try await Self.count(server, "tgt") == 5)

            let again = try await Self.replicate(server, ["source": "src", "target": "tgt"])
            let second = try #require(try again.json().objectValue)
            #expect(second["history"]?.arrayValue?.first?.objectValue?["docs_written"] == 0)
            #expect(second["no_changes"] == true)
            // Nothing is left running.
            #expect(try await Self.get(server, "/_scheduler/jobs").objectValue?["total_rows"] == 0)
        }
    }

    @Test("A continuous replication picks up a later write, shows in _active_tasks and on the target's longpoll feed, then cancels")
    func continuousLocal() async throws {
        try await withServer(TestServer.start()) { server in
            try await Self.seed(server, "src", count: 2)
            let body: JSONValue = ["source": "src", "target": "tgt", "create_target": true, "continuous": true]
            let reply = try await Self.replicate(server, body)
            #expect(reply.status == 200)
            let localID = try #require(try reply.json().objectValue?["_local_id"]?.stringValue)
            #expect(localID.hasSuffix("+continuous+create_target"))
            #expect(try await waitUntil(timeout: 60) { try await Self.count(server, "tgt") == 2 })

            // A longpoll feed on the target, opened before the write, answers with the
            // replicated document.
            let seq = try #require(try await Self.get(server, "/tgt").objectValue?["update_seq"])
            let since = seq.stringValue ?? seq.intValue.map(String.init) ?? "0"
            let client = server.client
            let auth = server.auth
            let feed = Task {
                try await client.send("GET", "/tgt/_changes?feed=longpoll&timeout=600000&since=\(since)", headers: auth)
            }
            #expect(try await server.client.send("PUT", "/src/late", json: ["a": 1], headers: server.auth).status == 201)
            // A hang guard: the feed's own timeout is ten minutes, so only the change ends it.
            let changes = try await withTimeout(120) { try await feed.value }
            #expect(try changes.json().objectValue?["results"]?.arrayValue?.contains { $0.objectValue?["id"] == "late" } == true)
            #expect(try await waitUntil(timeout: 60) { try await Self.count(server, "tgt") == 3 })
            // The task counts a batch once it has committed it, just after the target shows it.
            #expect(try await waitUntil(timeout: 60) {
                try await Self.get(server, "/_active_tasks").arrayValue?.first?.objectValue?["docs_written"] == 3
            })

            let tasks = try #require(try await Self.get(server, "/_active_tasks").arrayValue)
            #expect(tasks.count == 1)
            let task = try #require(tasks.first?.objectValue)
            #expect(task["type"] == "replication")
            #expect(task["replication_id"] == .string(localID))
            #expect(task["continuous"] == true)
            #expect(task["source"] == "src")
            #expect(task["docs_written"] == 3)

            // The same request again names the same job.
            #expect(try await Self.replicate(server, body).json().objectValue?["_local_id"] == .string(localID))
            let cancel = try await Self.replicate(server, ["replication_id": .string(localID), "cancel": true])
            #expect(cancel.status == 200)
            #expect(try await waitUntil(timeout: 60) { try await Self.get(server, "/_active_tasks") == [] })
            let twice = try await Self.replicate(server, ["source": "src", "target": "tgt", "create_target": true, "continuous": true, "cancel": true])
            #expect(twice.status == 404)
            #expect(try twice.json() == ["error": "not_found", "reason": "missing"])
        }
    }

    @Test("A _replicator document starts a job, _scheduler shows it, and deleting the document stops it")
    func replicatorDocument() async throws {
        try await withServer(TestServer.start()) { server in
            try await Self.seed(server, "src", count: 3)
            let put = try await server.client.send(
                "PUT", "/_replicator/job1", json: ["source": "src", "target": "tgt", "continuous": true, "create_target": true],
                headers: server.auth)
            #expect(put.status == 201)
            let rev = try #require(try put.json().objectValue?["rev"]?.stringValue)
            #expect(try await waitUntil(timeout: 60) { try await Self.count(server, "tgt") == 3 })
            // The job counts a batch once it has committed it, just after the target shows it:
            // the count is an event to wait for, not a state the target's count implies.
            #expect(try await waitUntil(timeout: 60) {
                let doc = try await Self.schedulerDoc(server, "job1")
                return doc?["state"] == "running" && doc?["info"]?.objectValue?["docs_written"] == 3
            })
            let doc = try #require(try await Self.schedulerDoc(server, "job1"))
            #expect(doc["database"] == "_replicator")
            #expect(doc["doc_id"] == "job1")
            #expect(doc["error_count"] == 0)
            #expect(doc["info"]?.objectValue?["docs_written"] == 3)
            let jobs = try #require(try await Self.get(server, "/_scheduler/jobs").objectValue)
            #expect(jobs["total_rows"] == 1)
            #expect(jobs["offset"] == 0)
            #expect(jobs["jobs"]?.arrayValue?.first?.objectValue?["doc_id"] == "job1")
            #expect(try await server.client.send("GET", "/_scheduler/docs/_replicator/nope", headers: server.auth).status == 404)

            // A document that is not a replication is kept, and its job reported failed.
            let broken = try await server.client.send("PUT", "/_replicator/broken", json: ["source": "src"], headers: server.auth)
            #expect(broken.status == 201)
            #expect(try await waitUntil(timeout: 60) { try await Self.schedulerDoc(server, "broken")?["state"] == "failed" })
            let failed = try #require(try await Self.schedulerDoc(server, "broken"))
            #expect(failed["info"]?.objectValue?["error"] == "Missing required field: target")
            #expect(failed["id"] == .null)
            let brokenRev = try #require(try broken.json().objectValue?["rev"]?.stringValue)
            #expect(try await server.client.send("DELETE", "/_replicator/broken?rev=\(brokenRev)", headers: server.auth).status == 200)

            #expect(try await server.client.send("DELETE", "/_replicator/job1?rev=\(rev)", headers: server.auth).status == 200)
            #expect(try await waitUntil(timeout: 60) {
                try await Self.get(server, "/_scheduler/docs").objectValue?["total_rows"] == 0
            })
            #expect(try await Self.get(server, "/_scheduler/jobs").objectValue?["total_rows"] == 0)
            #expect(try await Self.get(server, "/_active_tasks") == [])
            #expect(try await server.client.send("PUT", "/src/after", json: ["a": 1], headers: server.auth).status == 201)
            try await observationWindow(.seconds(1))
            #expect(try await server.client.send("GET", "/tgt/after", headers: server.auth).status == 404)
        }
    }

    @Test("A one-shot _replicator document records its end as a new revision: completed, its time and CouchDB's stats")
    func oneShotDocumentRecordsItsEnd() async throws {
        try await withServer(TestServer.start()) { server in
            try await Self.seed(server, "src", count: 3)
            let definition: JSONObject = ["source": "src", "target": "tgt", "create_target": true]
            let put = try await server.client.send("PUT", "/_replicator/once", json: .object(definition), headers: server.auth)
            #expect(put.status == 201)
            #expect(try await waitUntil(timeout: 60) {
                try await Self.get(server, "/_replicator/once").objectValue?["_replication_state"] == "completed"
            })
            let doc = try #require(try await Self.get(server, "/_replicator/once").objectValue)
            let rev = try #require(doc["_rev"]?.stringValue)
            #expect(rev.hasPrefix("2-"))
            for (key, value) in definition { #expect(doc[key] == value, "\(key)") }
            let time = try #require(doc["_replication_state_time"]?.stringValue)
            #expect(time.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil, "\(time)")
            let stats = try #require(doc["_replication_stats"]?.objectValue)
            #expect(Set(stats.keys) == [
                "revisions_checked", "missing_revisions_found", "docs_read", "docs_written", "changes_pending",
                "doc_write_failures", "bulk_get_docs", "bulk_get_attempts", "checkpointed_source_seq", "start_time",
            ])
            #expect(stats["docs_written"] == 3)
            #expect(stats["docs_read"] == 3)
            #expect(stats["missing_revisions_found"] == 3)
            #expect(stats["doc_write_failures"] == 0)
            #expect(stats["changes_pending"] == .null)
            #expect(stats["start_time"]?.stringValue?.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil)
            #expect(doc["_replication_state_reason"] == nil)
            #expect(try await Self.count(server, "tgt") == 3)

            // The changes feed shows the recorded revision, body included.
            let changes = try #require(try await Self.get(server, "/_replicator/_changes?include_docs=true").objectValue)
            let results = try #require(changes["results"]?.arrayValue)
            let entry = try #require(results.first { $0.objectValue?["id"] == "once" }?.objectValue)
            #expect(entry["changes"] == [["rev": .string(rev)]])
            #expect(entry["doc"]?.objectValue?["_replication_state"] == "completed")
            #expect(entry["doc"]?.objectValue?["_replication_stats"]?.objectValue?["docs_written"] == 3)

            // The write does not start the job again: once a later document's job has ended
            // (the watcher reads changes in order), the first is still completed at revision 2.
            #expect(try await server.client.send("PUT", "/_replicator/later", json: ["source": "src", "target": "tgt2", "create_target": true],
                                                 headers: server.auth).status == 201)
            #expect(try await waitUntil(timeout: 60) {
                try await Self.get(server, "/_replicator/later").objectValue?["_replication_state"] == "completed"
            })
            #expect(try await Self.schedulerDoc(server, "once")?["state"] == "completed")
            #expect(try await Self.get(server, "/_replicator/once").objectValue?["_rev"] == .string(rev))
        }
    }

    @Test("A one-shot _replicator document that fails records failed and the reason, without stats")
    func failedDocumentRecordsItsEnd() async throws {
        try await withServer(TestServer.start()) { server in
            try await Self.seed(server, "src", count: 1)
            // A selector the engine refuses fails the job for good (no retry can fix it).
            let put = try await server.client.send(
                "PUT", "/_replicator/bad", json: ["source": "src", "target": "tgt", "create_target": true, "selector": ["$nope": 1]],
                headers: server.auth)
            #expect(put.status == 201)
            #expect(try await waitUntil(timeout: 60) {
                try await Self.get(server, "/_replicator/bad").objectValue?["_replication_state"] == "failed"
            })
            let doc = try #require(try await Self.get(server, "/_replicator/bad").objectValue)
            #expect(doc["_rev"]?.stringValue?.hasPrefix("2-") == true)
            #expect(doc["_replication_state_reason"]?.stringValue?.isEmpty == false)
            #expect(doc["_replication_state_time"]?.stringValue != nil)
            #expect(doc["_replication_stats"] == nil)
            #expect(try await Self.schedulerDoc(server, "bad")?["state"] == "failed")
        }
    }

    @Test("_active_tasks and _scheduler entries carry CouchDB 3.4.3's fields")
    func taskShapes() async throws {
        try await withServer(TestServer.start()) { server in
            try await Self.seed(server, "src", count: 1)
            _ = try await server.client.send(
                "PUT", "/_replicator/shape", json: ["source": "src", "target": "tgt", "continuous": true, "create_target": true],
                headers: server.auth)
            _ = try await Self.replicate(server, ["source": "src", "target": "tgt2", "continuous": true, "create_target": true])
            #expect(try await waitUntil(timeout: 60) {
                try await Self.get(server, "/_active_tasks").arrayValue?.count == 2
            })
            let task = try #require(try await Self.get(server, "/_active_tasks").arrayValue?.first?.objectValue)
            #expect(Set(task.keys) == Self.activeTaskKeys)
            let jobs = try #require(try await Self.get(server, "/_scheduler/jobs").objectValue)
            #expect(Set(jobs.keys) == ["total_rows", "offset", "jobs"])
            for job in jobs["jobs"]?.arrayValue ?? [] {
                #expect(Set(job.objectValue?.keys ?? [:].keys) == Self.schedulerJobKeys)
            }
            let docs = try #require(try await Self.get(server, "/_scheduler/docs").objectValue)
            #expect(Set(docs.keys) == ["total_rows", "offset", "docs"])
            #expect(docs["total_rows"] == 1)
            let doc = try #require(docs["docs"]?.arrayValue?.first?.objectValue)
            #expect(Set(doc.keys) == Self.schedulerDocKeys)
            let limited = try await Self.get(server, "/_scheduler/jobs?limit=1&skip=1").objectValue
            #expect(limited?["jobs"]?.arrayValue?.count == 1)
            #expect(limited?["offset"] == 1)
        }
    }

    /// The keys of a CouchDB 3.4.3 `_active_tasks` replication entry.
    static let activeTaskKeys: Set<String> = [
        "node", "pid", "process_status", "bulk_get_attempts", "bulk_get_docs", "changes_pending", "checkpoint_interval",
        "checkpointed_source_seq", "continuous", "database", "doc_id", "doc_write_failures", "docs_read", "docs_written",
        "missing_revisions_found", "replication_id", "revisions_checked", "source", "source_seq", "started_on", "target",
        "through_seq", "type", "updated_on", "user",
    ]
    /// The keys of a CouchDB 3.4.3 `_scheduler/jobs` entry.
    static let schedulerJobKeys: Set<String> = [
        "database", "id", "pid", "source", "target", "user", "doc_id", "info", "history", "node", "start_time",
    ]
    /// The keys of a CouchDB 3.4.3 `_scheduler/docs` entry of a job still scheduled.
    static let schedulerDocKeys: Set<String> = [
        "database", "doc_id", "id", "node", "source", "target", "state", "info", "error_count", "last_updated",
        "start_time", "source_proxy", "target_proxy",
    ]

    @Test("Users who are not the server admin and malformed bodies are refused, and nothing changes")
    func refusals() async throws {
        try await withServer(TestServer.start { $0.passwordIterations = 1000 }) { server in
            let client = server.client
            let user = try await client.send(
                "PUT", "/_users/org.couchdb.user:bob", json: ["name": "bob", "password": "bob-pw", "roles": [], "type": "user"],
                headers: server.auth)
            #expect(user.status == 201)
            let bob = HTTPTestClient.basic("bob", "bob-pw")
            let body: JSONValue = ["source": "src", "target": "tgt", "create_target": true]
            #expect(try await Self.replicate(server, body, headers: bob).status == 401)
            #expect(try await Self.replicate(server, body, headers: [:]).status == 401)
            for path in ["/_active_tasks", "/_scheduler/jobs", "/_scheduler/docs"] {
                let reply = try await client.send("GET", path, headers: bob)
                #expect(reply.status == 401, "\(path)")
                #expect(try reply.json().objectValue?["error"] == "unauthorized")
            }
            let write = try await client.send("PUT", "/_replicator/x", json: body, headers: bob)
            #expect(write.status == 403)
            #expect(try write.json() == ["error": "forbidden", "reason": "You are not allowed to access this db."])
            #expect(try await client.send("GET", "/_replicator/_all_docs").status == 401)

            let bad: [JSONValue] = [
                ["target": "tgt"], ["source": "src"], ["source": 1, "target": "tgt"], ["source": "src", "target": ["headers": [:]]],
                ["source": "ftp://host/db", "target": "tgt"], ["source": "http://127.0.0.1:1/", "target": "tgt"],
                ["source": "Not A Name", "target": "tgt"], ["source": "src", "target": "tgt", "continuous": "yes"],
                ["source": "src", "target": "tgt", "selector": [1]], ["source": "src", "target": "tgt", "doc_ids": "a"],
                [1, 2],
            ]
            for request in bad {
                let reply = try await Self.replicate(server, request)
                #expect(reply.status == 400, "\(request)")
                #expect(try reply.json().objectValue?["error"] == "bad_request", "\(request)")
            }
            let accounts = try await Self.replicate(server, ["source": "_users", "target": "copy", "create_target": true])
            #expect(accounts.status == 403)
            let wrongMethod = try await client.send("GET", "/_replicate", headers: server.auth)
            #expect(wrongMethod.status == 405)
            let missing = try await Self.replicate(server, ["source": "nothere", "target": "tgt"])
            #expect(missing.status == 500)
            #expect(try missing.json() == ["error": "db_not_found", "reason": "could not open nothere"])
            // Nothing was created or started.
            #expect(try await Self.get(server, "/_all_dbs") == ["_users"])
            #expect(try await Self.get(server, "/_scheduler/jobs").objectValue?["total_rows"] == 0)
        }
    }

    @Test("A replication to an unreachable host is crashing with error_count > 0 and masked credentials, while the server keeps answering")
    func unreachableTarget() async throws {
        let reserved = try TemporaryPort()  // refused for as long as the test runs
        let port = reserved.number
        try await withServer(TestServer.start { $0.replicationRetryDelay = .milliseconds(100) }) { server in
            try await Self.seed(server, "src", count: 2)
            let target = "http://admin:s3cret-pw@127.0.0.1:\(port)/gone"
            let put = try await server.client.send(
                "PUT", "/_replicator/away", json: ["source": "src", "target": .string(target), "continuous": true], headers: server.auth)
            #expect(put.status == 201)
            // Each attempt retries its refused connections with the client's backoff (about 3 s)
            // before the job crashes: a hang guard, with room for a busy machine.
            #expect(try await waitUntil(timeout: 120) {
                let doc = try await Self.schedulerDoc(server, "away")
                return doc?["state"] == "crashing" && (doc?["error_count"]?.intValue ?? 0) >= 2
            })
            // Other requests are answered meanwhile.
            #expect(try await server.client.send("GET", "/src", headers: server.auth).status == 200)
            let doc = try #require(try await Self.schedulerDoc(server, "away"))
            let text = String(decoding: JSONWriter.couchDB.data(.object(doc)), as: UTF8.self)
            #expect(!text.contains("s3cret-pw"))
            #expect(doc["target"] == .string("http://127.0.0.1:\(port)/gone/"))
            #expect(doc["info"]?.objectValue?["error"]?.stringValue?.contains("could not be reached") == true)
            let job = try #require(try await Self.get(server, "/_scheduler/jobs").objectValue?["jobs"]?.arrayValue?.first?.objectValue)
            #expect(job["history"]?.arrayValue?.contains { $0.objectValue?["type"] == "crashed" } == true)
            #expect(!String(decoding: JSONWriter.couchDB.data(.object(job)), as: UTF8.self).contains("s3cret-pw"))
            #expect(try await Self.get(server, "/_active_tasks") == [])

            // A one-shot request fails at once with CouchDB's shape, password masked.
            let once = try await Self.replicate(server, ["source": "src", "target": .string(target)])
            #expect(once.status == 500)
            #expect(!String(decoding: once.body, as: UTF8.self).contains("s3cret-pw"))
        }
        withExtendedLifetime(reserved) {}
    }

    /// A server over `directory`, which outlives it.
    static func serve(_ directory: URL) async throws -> (CouchServer, HTTPTestClient) {
        var logger = Logger(label: "couchserver-tests")
        logger.logLevel = .warning
        let server = CouchServer(
            configuration: CouchServerConfiguration(
                dataDirectory: directory, host: "127.0.0.1", port: 0,
                credentials: ServerCredentials(user: TestServer.user, password: TestServer.password)),
            logger: logger)
        let port = try await server.start()
        return (server, HTTPTestClient(port: port))
    }

    @Test("After a restart, _replicator jobs resume from their checkpoints: the second run reads only what is new")
    func resumeAfterRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("couchserver-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let auth = HTTPTestClient.basic(TestServer.user, TestServer.password)
        func docsRead(_ client: HTTPTestClient) async throws -> Int64? {
            let reply = try await client.send("GET", "/_scheduler/docs/_replicator/resume", headers: auth)
            guard reply.status == 200 else { return nil }
            return try reply.json().objectValue?["info"]?.objectValue?["docs_read"]?.intValue
        }
        func count(_ client: HTTPTestClient) async throws -> Int64? {
            try await client.send("GET", "/tgt", headers: auth).json().objectValue?["doc_count"]?.intValue
        }

        let (first, firstClient) = try await Self.serve(directory)
        do {
            _ = try await firstClient.send("PUT", "/src", headers: auth)
            let docs = (0..<20).map { JSONValue.object(["_id": .string("d\($0)")]) }
            #expect(try await firstClient.send("POST", "/src/_bulk_docs", json: ["docs": .array(docs)], headers: auth).status == 201)
            let put = try await firstClient.send(
                "PUT", "/_replicator/resume", json: ["source": "src", "target": "tgt", "continuous": true, "create_target": true],
                headers: auth)
            #expect(put.status == 201)
            #expect(try await waitUntil(timeout: 60) { try await count(firstClient) == 20 })
            #expect(try await waitUntil(timeout: 60) { try await docsRead(firstClient) == 20 })
        }
        await first.stop()

        let (second, secondClient) = try await Self.serve(directory)
        do {
            let docs = (20..<23).map { JSONValue.object(["_id": .string("d\($0)")]) }
            #expect(try await secondClient.send("POST", "/src/_bulk_docs", json: ["docs": .array(docs)], headers: auth).status == 201)
            #expect(try await waitUntil(timeout: 60) { try await count(secondClient) == 23 })
            #expect(try await waitUntil(timeout: 60) { try await docsRead(secondClient) == 3 })
            let read = try await docsRead(secondClient) ?? -1
            #expect(read < 20, "the resumed job read \(read) documents")
        }
        await second.stop()
    }
}
