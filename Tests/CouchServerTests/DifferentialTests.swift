import DocumentStore
import Foundation
import InteropSupport
import Testing
import TestSupport
import DocumentFormat

/// The same requests sent to our server and to a live CouchDB 3.4.3 (`COUCHDB_URL`), the
/// replies compared after normalising what legitimately differs (revision hashes each server
/// computes, sequences, UUIDs, the database name). A difference is either fixed or listed in
/// ``knownDifferences`` with its reason (the CouchServer article "Compatibility, Limits and
/// Hardening", ServerCompatibility.md, lists the same under "Known differences from
/// CouchDB"); a listed difference that no longer shows fails too, so the list stays true.
@Suite("Differential: recipes serve and CouchDB answer alike", .serialized,
       .enabled(if: LiveCouchDB.isConfigured, "COUCHDB_URL is not set: no live CouchDB to compare recipes serve with"))
struct DifferentialTests {
    static let base = "1-" + String(repeating: "0", count: 31) + "1"
    static let branchA = "2-" + String(repeating: "a", count: 32)
    static let branchB = "2-" + String(repeating: "b", count: 32)
    static let branchC = "3-" + String(repeating: "c", count: 32)
    static let unknownD = "4-" + String(repeating: "d", count: 32)
    static let unknownE = "1-" + String(repeating: "e", count: 32)

    /// Differences that stay, with why: `step` → a text the difference contains.
    static let knownDifferences: [(step: String, contains: String, reason: String)] = [
        ("GET /{db}/text", "digest",
         "CouchDB keeps text attachments gzip-compressed and digests the compressed bytes; we keep and digest the bytes themselves"),
        ("GET /{db}/_changes?include_docs=true&style=all_docs&conflicts=true", "digest",
         "the text attachment's digest, as above"),
        ("POST /{db}/_find", "status 200 instead of CouchDB's 400",
         "a sort no index serves is refused by CouchDB (no_usable_index); we sort the matches in memory"),
        ("PUT /{db}/_local/other", "status 409 instead of CouchDB's 201",
         "a _local write without the current _rev is refused (409), so a stale writer cannot replace a replication checkpoint; CouchDB overwrites"),
    ]

    /// A conflicted document inserted as a replicator does, with fixed revisions.
    static var conflicted: JSONValue {
        func branch(_ rev: String, _ ids: [String], _ body: JSONObject) -> JSONValue {
            var document = body
            document["_id"] = "conflicted"
            document["_rev"] = .string(rev)
            document["_revisions"] = ["start": .int(Int64(ids.count)), "ids": .array(ids.map { .string($0) })]
            return .object(document)
        }
        let hash = { (rev: String) in String(rev.split(separator: "-")[1]) }
        return ["new_edits": false, "docs": [
            branch(branchA, [hash(branchA), hash(base)], ["side": "a", "n": 1]),
            branch(branchC, [hash(branchC), hash(branchB), hash(base)], ["side": "b", "n": 2]),
        ]]
    }

    /// Revision IDs of one generation, only one of them 32 hex digits (CouchDB orders that one
    /// as 16 bytes, the others as text).
    static let mixedHex = "2-" + String(repeating: "f", count: 32)
    static let mixedLow = "2-" + String(repeating: "1", count: 32)

    /// Conflicting branches whose revision IDs are not all 32 hex digits, as a replicator
    /// inserts them.
    static var mixedRevisions: JSONValue {
        func branch(_ rev: String) -> JSONValue {
            let hash = String(rev.dropFirst(2))
            return ["_id": "mixed", "_rev": .string(rev), "v": .string(hash), "_revisions": ["start": 2, "ids": [.string(hash), "base"]]]
        }
        return ["new_edits": false, "docs": [branch("2-zz"), branch(mixedHex), branch(mixedLow), branch("2-a")]]
    }

    static let steps: [DifferentialStep] = [
        // Databases.
        .json("PUT", "/{db}"),
        .json("PUT", "/{db}", nil, .exact),
        .json("GET", "/{db}", nil, .members(["db_name", "doc_count", "doc_del_count"])),
        .json("GET", "/{db}-missing"),
        .json("PUT", "/{db}-q?q=16"),
        .json("GET", "/{db}-q", nil, .members(["db_name", "cluster"])),
        .json("DELETE", "/{db}-q"),
        .json("PUT", "/{db}-q?q=0"),
        .json("PUT", "/{db}-q?q=x"),
        .json("PUT", "/_illegal"),
        // Documents: create, read, conflict, update, delete.
        .json("PUT", "/{db}/doc1", ["name": "Soup", "n": 1, "tags": ["a", "b"]], capture: ["rev1": "rev"]),
        .json("GET", "/{db}/doc1"),
        .json("PUT", "/{db}/doc1", ["name": "Soup again"]),
        .json("PUT", "/{db}/doc1", ["_rev": "{rev1}", "name": "Leek soup", "n": 2], capture: ["rev2": "rev"]),
        .json("GET", "/{db}/doc1?revs=true"),
        .json("GET", "/{db}/doc1?revs_info=true"),
        .json("GET", "/{db}/doc1?rev={rev1}"),
        .json("GET", "/{db}/doc1?rev=9-99999999999999999999999999999999"),
        .json("GET", "/{db}/missing"),
        .json("DELETE", "/{db}/doc1?rev={rev2}"),
        .json("GET", "/{db}/doc1"),
        .json("PUT", "/{db}/_bad", ["a": 1]),
        .json("PUT", "/{db}/doc2", ["_bad": 1]),
        .json("POST", "/{db}", ["_id": "posted", "v": 1]),
        // Bulk writes, ordinary and as a replicator.
        .json("POST", "/{db}/_bulk_docs", ["docs": [["_id": "b1", "v": 1], ["_id": "b2", "v": 2], ["_id": "b3", "v": 3, "kind": "x"]]]),
        .json("POST", "/{db}/_bulk_docs", ["docs": [["_id": "b1", "v": 10]]]),
        .json("POST", "/{db}/_bulk_docs", conflicted),
        .json("GET", "/{db}/conflicted?conflicts=true"),
        .json("GET", "/{db}/conflicted?open_revs=all", headers: ["Accept": "application/json"]),
        .json("GET", "/{db}/conflicted?open_revs=[\"\(branchA)\",\"9-99999999999999999999999999999999\"]&revs=true", headers: ["Accept": "application/json"]),
        .json("GET", "/{db}/conflicted?open_revs=[\"\(branchA)\"]&revs=true&latest=true", headers: ["Accept": "multipart/mixed"]).with(.multipart),
        // Replication requests.
        .json("POST", "/{db}/_revs_diff", ["conflicted": [.string(branchA), .string(unknownD)], "nodoc": [.string(unknownE)]]),
        .json("POST", "/{db}/_bulk_get?revs=true", ["docs": [["id": "conflicted", "rev": .string(branchC)], ["id": "b2"], ["id": "nodoc"]]],
              headers: ["Accept": "application/json"]),
        .json("POST", "/{db}/_bulk_get?revs=true", ["docs": [["id": "conflicted", "rev": .string(branchA)]]],
              headers: ["Accept": "multipart/mixed"]).with(.multipart),
        // Attachments.
        DifferentialStep(method: "PUT", path: "/{db}/att/pic.png", headers: ["Content-Type": "image/png"],
                         rawBody: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0xFF, 0]), captures: ["attRev": "rev"]),
        .json("GET", "/{db}/att"),
        .json("GET", "/{db}/att/pic.png").with(.bytes),
        .json("GET", "/{db}/att?attachments=true"),
        .json("GET", "/{db}/att?rev={attRev}&attachments=true", headers: ["Accept": "multipart/related"]).with(.multipart),
        .json("GET", "/{db}/att/missing.png"),
        .json("GET", "/{db}/nodoc/missing.png"),
        DifferentialStep(method: "PUT", path: "/{db}/text/note.txt", headers: ["Content-Type": "text/plain"],
                         rawBody: Data("hello, attachment\n".utf8)),
        .json("GET", "/{db}/text"),
        .json("GET", "/{db}/text/note.txt").with(.bytes),
        // Changes.
        // (CouchDB's database has shards, each with its own order: rows compared as sets.)
        .json("GET", "/{db}/_changes", nil, .changesAsSet),
        .json("GET", "/{db}/_changes?style=all_docs", nil, .changesAsSet),
        .json("GET", "/{db}/_changes?limit=2", nil, .count("results")),
        .json("GET", "/{db}/_changes?descending=true&limit=3", nil, .count("results")),
        .json("GET", "/{db}/_changes?include_docs=true&style=all_docs&conflicts=true", nil, .changesAsSet),
        .json("POST", "/{db}/_changes?filter=_doc_ids", ["doc_ids": ["b1", "conflicted", "nodoc"]], .changesAsSet),
        .json("GET", "/{db}/_changes?filter=_doc_ids&doc_ids=[\"b2\"]", nil, .changesAsSet),
        .json("POST", "/{db}/_changes?filter=_selector", ["selector": ["v": ["$gte": 2]]], .changesAsSet),
        .json("GET", "/{db}/_changes?feed=longpoll&since=now&timeout=100"),
        // All documents.
        .json("GET", "/{db}/_all_docs"),
        .json("GET", "/{db}/_all_docs?startkey=\"b\"&endkey=\"c\""),
        .json("GET", "/{db}/_all_docs?descending=true&limit=2&skip=1"),
        .json("GET", "/{db}/_all_docs?include_docs=true&endkey=\"b2\"&inclusive_end=false"),
        .json("GET", "/{db}/_all_docs?key=\"b3\""),
        .json("GET", "/{db}/_all_docs?key=\"nodoc\""),
        .json("GET", "/{db}/_all_docs?startkey=\"b2\"&skip=1&limit=5"),
        .json("POST", "/{db}/_all_docs", ["keys": ["b3", "nodoc", "doc1", "b1"]]),
        // Mango.
        .json("POST", "/{db}/_find", ["selector": ["v": ["$gt": 0]], "sort": [["v": "asc"]]]),
        .json("POST", "/{db}/_index", ["index": ["fields": ["v"]], "name": "by-v", "ddoc": "by-v"]),
        .json("POST", "/{db}/_find", ["selector": ["v": ["$gt": 0]], "sort": [["v": "asc"]], "limit": 2, "fields": ["_id", "v"]]),
        .json("POST", "/{db}/_find", ["selector": ["kind": "x"]], .members(["docs"])),
        .json("POST", "/{db}/_find", ["selector": ["v": ["$nope": 1]]], .status),
        // Mango paging by bookmark (each side sends back its own), _id order, warnings.
        .json("POST", "/{db}/_find", ["selector": ["_id": ["$gt": ""]], "fields": ["_id"], "limit": 3], capture: ["idPage": "bookmark"]),
        .json("POST", "/{db}/_find", ["selector": ["_id": ["$gt": ""]], "fields": ["_id"], "limit": 3, "bookmark": "{idPage}"], capture: ["idPage": "bookmark"]),
        .json("POST", "/{db}/_find", ["selector": ["_id": ["$gt": ""]], "fields": ["_id"], "limit": 3, "bookmark": "{idPage}"]),
        .json("POST", "/{db}/_find", ["selector": ["v": ["$gt": 0]], "sort": [["v": "asc"]], "limit": 2], capture: ["vPage": "bookmark"]),
        .json("POST", "/{db}/_find", ["selector": ["v": ["$gt": 0]], "sort": [["v": "asc"]], "limit": 2, "bookmark": "{vPage}"]),
        .json("POST", "/{db}/_find", ["selector": ["v": ["$gt": 0]], "bookmark": "xyz"]),
        // Mango indexes as design documents, and _explain.
        .json("GET", "/{db}/_index"),
        .json("POST", "/{db}/_index", ["index": ["fields": ["v"]], "name": "by-v", "ddoc": "_design/by-v"]),
        .json("POST", "/{db}/_index", ["index": ["fields": ["kind"]], "name": "by-kind", "ddoc": "multi"]),
        .json("GET", "/{db}/_design/multi"),
        .json("GET", "/{db}/_index"),
        .json("POST", "/{db}/_explain", ["selector": ["kind": "x"], "limit": 5, "fields": ["_id"]], .members(["dbname", "index", "limit", "skip", "fields"])),
        .json("POST", "/{db}/_explain", ["selector": ["nothing": "x"]], .members(["dbname", "index", "limit", "skip", "fields"])),
        // _explain reports the selector in CouchDB's normal form (one member per object here: the
        // order of several follows the order the client sent, which JSONEncoder does not fix).
        .json("POST", "/{db}/_explain", ["selector": ["type": "Person"]], .members(["selector"])),
        .json("POST", "/{db}/_explain", ["selector": ["a": ["b": 1]]], .members(["selector"])),
        .json("POST", "/{db}/_explain", ["selector": ["$or": [["a": 1], ["b": ["$in": [1, 2]]]]]], .members(["selector"])),
        .json("POST", "/{db}/_explain", ["selector": ["$nor": [["c": ["$in": [1]]]]]], .members(["selector"])),
        .json("POST", "/{db}/_explain", ["selector": ["h": ["$not": ["$ne": 4]]]], .members(["selector"])),
        .json("POST", "/{db}/_index", ["index": ["fields": ["a", ["b": "desc"]]]]),
        .json("PUT", "/{db}/_index", [:]),
        .json("DELETE", "/{db}/_index/multi/json/by-kind"),
        .json("GET", "/{db}/_design/multi"),
        .json("DELETE", "/{db}/_index/_design/multi/json/by-kind"),
        // COPY, _missing_revs, If-Match on attachments, batch=ok.
        .json("COPY", "/{db}/b2", headers: ["Destination": "b2copy"], capture: ["copyRev": "rev"]).with(.members(["ok", "id"])),
        .json("COPY", "/{db}/b2", headers: ["Destination": "b2copy"]),
        .json("COPY", "/{db}/b2", headers: ["Destination": "b2copy?rev={copyRev}"]).with(.members(["ok", "id"])),
        .json("GET", "/{db}/b2copy", nil, .members(["_id", "v"])),
        .json("COPY", "/{db}/b2"),
        .json("COPY", "/{db}/nodoc", headers: ["Destination": "x"]),
        .json("POST", "/{db}/_missing_revs", ["conflicted": [.string(branchA), .string(unknownD)], "nodoc": [.string(unknownE)]]),
        DifferentialStep(method: "PUT", path: "/{db}/att/second.txt", headers: ["Content-Type": "text/plain", "If-Match": "\"{attRev}\""],
                         rawBody: Data("second".utf8)).with(.members(["ok", "id"])),
        // Query strings and Accept.
        .json("GET", "/{db}/_all_docs?keys=[\"b1\",+\"b3\"]"),
        .json("GET", "/{db}/_all_docs?startkey=%22b1%5Cu0000%22&limit=2"),
        .json("GET", "/{db}/_all_docs?descending=True&limit=1"),
        .json("POST", "/{db}/_bulk_get", ["docs": [["id": "b2"]]], headers: ["Accept": "*/*"]),
        .json("GET", "/{db}/conflicted?open_revs=all", headers: ["Accept": "text/html"]),
        // Conflicts between revision IDs that are not all 32 hex digits: the same winner and _conflicts.
        .json("POST", "/{db}/_bulk_docs", mixedRevisions),
        .json("GET", "/{db}/mixed?conflicts=true"),
        .json("GET", "/{db}/mixed?open_revs=all", headers: ["Accept": "application/json"]),
        .json("POST", "/{db}/_revs_diff", ["mixed": ["2-zz", "2-a", "2-b"]]),
        .json("POST", "/{db}/_purge", ["mixed": ["2-zz", "1-base", "9-nope"], "nodoc": ["1-abc"]]),
        .json("GET", "/{db}/mixed?conflicts=true"),
        .json("POST", "/{db}/_purge", ["mixed": "2-a"]),
        // Last: CouchDB writes batch=ok documents later, so counts would differ for a while.
        .json("PUT", "/{db}/batched?batch=ok", ["a": 1]),
        .json("POST", "/{db}?batch=ok", ["_id": "batched2"]),
        // Local documents.
        .json("PUT", "/{db}/_local/checkpoint", ["last": 1]),
        .json("GET", "/{db}/_local/checkpoint"),
        .json("PUT", "/{db}/_local/checkpoint", ["_rev": "0-1", "last": 2]),
        .json("GET", "/{db}/_local/checkpoint"),
        .json("PUT", "/{db}/_local/other", ["last": 1]),
        .json("PUT", "/{db}/_local/other", ["last": 2]).with(.status),
        .json("GET", "/{db}/_local/missing"),
        .json("DELETE", "/{db}/_local/checkpoint?rev=0-2"),
        .json("GET", "/{db}/_local/checkpoint"),
        // Compaction (it used to trap the server: the writer connection was asked for twice).
        .json("POST", "/{db}/_compact"),
        .json("POST", "/{db}/_compact", headers: ["Content-Type": "application/json"]),
        .json("GET", "/{db}/b2", nil, .members(["_id", "v"])),
        // Design functions of a missing design document or view: 404 before any JavaScript.
        .json("GET", "/{db}/_design/nope/_view/v"),
        .json("GET", "/{db}/_design/nope/_show/s"),
        .json("GET", "/{db}/_design/by-v/_view/nope"),
        // View index upkeep: nothing to do here (no view indexes), CouchDB's answers all the same.
        .json("POST", "/{db}/_compact/by-v", headers: ["Content-Type": "application/json"]),
        .json("POST", "/{db}/_compact/nope", headers: ["Content-Type": "application/json"]),
        .json("POST", "/{db}/_compact/by-v"),
        .json("POST", "/{db}/_view_cleanup", headers: ["Content-Type": "application/json"]),
        .json("POST", "/{db}/_view_cleanup"),
        .json("GET", "/{db}/_view_cleanup"),
        // Wrong requests.
        DifferentialStep(method: "POST", path: "/{db}/_bulk_docs", headers: ["Content-Type": "application/json"], rawBody: Data("{not json".utf8)),
        .json("DELETE", "/{db}"),
        .json("GET", "/{db}"),
    ]

    @Test("every request of the sequence gets CouchDB's status and body, after normalising")
    func sameAnswers() async throws {
        let couch = try await LiveCouchDB.connect()
        try await withServer(TestServer.start()) { server in
            let name = "differential-" + UUID().uuidString.prefix(8).lowercased()
            let fixed: Set<String> = [Self.base, Self.branchA, Self.branchB, Self.branchC, Self.unknownD, Self.unknownE,
                                      Self.mixedHex, Self.mixedLow]
            var ours = DifferentialRun.Side(label: "recipes serve", client: server.client, auth: server.auth, database: name, fixedRevisions: fixed)
            var theirs = DifferentialRun.Side(label: "CouchDB", client: couch.client, auth: couch.auth, database: name, fixedRevisions: fixed)
            try await couch.deletingDatabase(name) {
                let found = try await DifferentialRun.differences(Self.steps, ours: &ours, couch: &theirs)
                var expected = Self.knownDifferences.map { (known: $0, seen: false) }
                for (step, difference) in found {
                    if let index = expected.firstIndex(where: { $0.known.step == step && difference.contains($0.known.contains) }) {
                        expected[index].seen = true
                    } else {
                        Issue.record("\(step): \(difference)")
                    }
                }
                for entry in expected where !entry.seen {
                    Issue.record("known difference no longer seen (remove it here and in CouchServer's ServerCompatibility article): \(entry.known.step): \(entry.known.reason)")
                }
            }
        }
    }
}

extension DifferentialStep {
    /// The same step compared another way.
    func with(_ comparison: Comparison) -> DifferentialStep {
        var step = self
        step.comparison = comparison
        return step
    }
}
