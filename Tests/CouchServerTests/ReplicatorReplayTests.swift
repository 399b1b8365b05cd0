import InteropSupport
import DocumentStore
import Foundation
import Testing
import TestSupport
import DocumentFormat

/// Replays what CouchDB 3.4.3's own replicator sent to a CouchDB server (recorded in
/// `Tests/Fixtures/couchdb-3.4.3/`) against our server, and checks that every reply has CouchDB's
/// status code and shape.
@Suite("CouchDB replicator replay")
struct ReplicatorReplayTests {
    /// Replays `exchanges` in order, expecting CouchDB's status and reply shape each time.
    static func replayExpectingCouchDB(_ exchanges: [RecordedExchange], replayer: inout Replayer) async throws -> [HTTPReply] {
        var replies = [HTTPReply]()
        for exchange in exchanges {
            let reply = try await replayer.replay(exchange)
            let label = "\(exchange.method) \(exchange.path)"
            #expect(reply.status == exchange.status, "\(label): \(reply.status) \(String(decoding: reply.body, as: UTF8.self))")
            if let theirs = exchange.responseJSON, (exchange.responseHeader("Content-Type") ?? "").hasPrefix("application/json") {
                let ours = try reply.json()
                let problems = Shape.differences(ours, theirs)
                #expect(problems.isEmpty, "\(label): \(problems)")
            }
            replies.append(reply)
        }
        return replies
    }

    /// A server whose `src` database holds the recorded documents, pushed the way CouchDB's
    /// replicator pushed them.
    static func seededServer() async throws -> (TestServer, Replayer) {
        let server = try await TestServer.start()
        let created = try await server.client.send("PUT", "/src", headers: server.auth)
        #expect(created.status == 201)
        var replayer = Replayer(client: server.client, renames: ["tgt_push2": "src"])
        _ = try await replayExpectingCouchDB(try Recording.load("couch-replicator-pushes-to-server.jsonl"), replayer: &replayer)
        return (server, replayer)
    }

    @Test("CouchDB's replicator pushing to our server gets CouchDB's replies, and the documents land")
    func pushReplay() async throws {
        try await withServer(Self.seededServer()) { server, _ in
            let info = try await server.client.send("GET", "/src", headers: server.auth).json()
            #expect(info.objectValue?["doc_count"] == .int(4))
            #expect(info.objectValue?["doc_del_count"] == .int(1))
            let recipe = try await server.client.send(
                "GET", "/src/CDTIS-Recipe-22222222-2222-4222-8222-222222222222?revs=true", headers: server.auth.merging(["Accept": "application/json"]) { $1 }).json()
            #expect(recipe.objectValue?["_rev"] == "1-209a1f02d51251ec44a1a49103c5dd63")
            #expect(recipe.objectValue?["_attachments"]?.objectValue?["thumbnailImage"]?.objectValue?["digest"]
                == "md5-xJs/8Hg5mpzwSFaxjRw9Ig==")
            let conflicted = try await server.client.send(
                "GET", "/src/CDTIS-RecipeType-11111111-1111-4111-8111-111111111111?conflicts=true", headers: server.auth).json()
            #expect(conflicted.objectValue?["_rev"] == "2-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb")
            #expect(conflicted.objectValue?["_conflicts"] == ["2-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"])
            let checkpoint = try await server.client.send("GET", "/src/_local/41064405307e9c9a02166b5712824393", headers: server.auth)
            #expect(checkpoint.status == 200)
            #expect(try checkpoint.json().objectValue?["_rev"] == "0-1")
        }
    }

    @Test("CouchDB's replicator pulling from our server gets CouchDB's replies, attachments as multipart/mixed, then resumes incrementally")
    func pullReplay() async throws {
        try await withServer(Self.seededServer()) { server, seeded in
            var replayer = Replayer(client: server.client)
            replayer.sequences = seeded.sequences
            let pull = try Recording.load("couch-replicator-pulls-from-server.jsonl")
            let replies = try await Self.replayExpectingCouchDB(pull, replayer: &replayer)

            // The changes feed lists the same documents and leaf revisions CouchDB listed.
            let changesIndex = pull.firstIndex { $0.path.contains("/_changes") }!
            #expect(Self.changeSummary(try replies[changesIndex].json()) == Self.changeSummary(pull[changesIndex].responseJSON!))

            // The document with an attachment comes back as multipart/mixed with the same bytes.
            let openRevsIndex = pull.firstIndex { $0.path.contains("open_revs") }!
            let reply = replies[openRevsIndex]
            let contentType = try #require(reply.header("Content-Type"))
            #expect(contentType.hasPrefix("multipart/mixed"))
            let ours = try MultipartTestParser.attachmentParts(reply.body, contentType: contentType)
            let theirs = try MultipartTestParser.attachmentParts(
                pull[openRevsIndex].responseBody, contentType: pull[openRevsIndex].responseHeader("Content-Type")!)
            #expect(ours.json?.objectValue?["_id"] == theirs.json?.objectValue?["_id"])
            #expect(ours.attachments == theirs.attachments)
            #expect(ours.attachments["thumbnailImage"]?.count == 222)
            // Framed exactly as CouchDB frames it: its replicator's reader is strict about what
            // follows an inner closing delimiter, and a stray line break there fails the pull.
            #expect(try MultipartFraming.skeleton(reply.body, contentType: contentType)
                == MultipartFraming.skeleton(pull[openRevsIndex].responseBody, contentType: pull[openRevsIndex].responseHeader("Content-Type")!))

            // One document changes on the source; the replicator finds its checkpoint and asks
            // only for what changed since.
            let incremental = try Recording.load("couch-replicator-pulls-incremental.jsonl")
            let newRevision = try #require(incremental.first { $0.path.contains("_bulk_get") }?.responseJSON)
            let doc = try #require(newRevision.objectValue?["results"]?.arrayValue?.first?.objectValue?["docs"]?
                .arrayValue?.first?.objectValue?["ok"])
            let pushed = try await server.client.send(
                "POST", "/src/_bulk_docs", json: ["new_edits": false, "docs": [doc]], headers: server.auth)
            #expect(pushed.status == 201)
            let incrementalReplies = try await Self.replayExpectingCouchDB(incremental, replayer: &replayer)
            let incrementalChanges = incremental.firstIndex { $0.path.contains("/_changes") }!
            #expect(Self.changeSummary(try incrementalReplies[incrementalChanges].json())
                == Self.changeSummary(incremental[incrementalChanges].responseJSON!))
        }
    }

    /// `id → [leaf revisions]` of a changes reply, for comparing feeds whose sequences differ.
    static func changeSummary(_ reply: JSONValue) -> [String: [String]] {
        var summary = [String: [String]]()
        for row in reply.objectValue?["results"]?.arrayValue ?? [] {
            guard let id = row.objectValue?["id"]?.stringValue else { continue }
            summary[id] = (row.objectValue?["changes"]?.arrayValue ?? []).compactMap { $0.objectValue?["rev"]?.stringValue }.sorted()
        }
        return summary
    }
}
