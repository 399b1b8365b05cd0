import DocumentFormat
import Foundation
import InteropSupport
import Testing
import TestSupport

/// `GET /_db_updates` and `_global_changes` sent to `recipes serve` and to a live CouchDB
/// 3.4.3: refusals and bad parameters must get the same status and body, and the events of
/// the same requests the same rows and documents (sequences aside, which each server makes
/// its own way).
@Suite("CouchServer _db_updates against a live CouchDB", .serialized,
       .enabled(if: LiveCouchDB.isConfigured, "COUCHDB_URL is not set: no live CouchDB to compare _db_updates with"))
struct DatabaseUpdatesLiveTests {
    /// Sends a request to one of the two servers as its administrator (or, with `anonymous`,
    /// without credentials).
    typealias Send = @Sendable (_ method: String, _ path: String, _ anonymous: Bool) async throws -> HTTPReply

    /// Waits, with longpolls from `since`, until the feed holds every event of `wanted`
    /// (`type:db_name`); returns the rows of those events. A hang guard bounds the wait, as
    /// CouchDB writes its events within about half a second.
    static func awaitEvents(_ send: @escaping Send, _ wanted: Set<String>, since: String) async throws -> [JSONObject] {
        try await withTimeout(60) {
            var cursor = since
            var rows: [String: JSONObject] = [:]
            while true {
                let reply = try await send("GET", "/_db_updates?feed=longpoll&timeout=10000&since=\(cursor)", false)
                #expect(reply.status == 200)
                let object = try reply.json().objectValue ?? [:]
                for row in object["results"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
                    if let type = row["type"]?.stringValue, let name = row["db_name"]?.stringValue, wanted.contains(type + ":" + name) {
                        rows[type + ":" + name] = row
                    }
                }
                cursor = object["last_seq"]?.stringValue ?? cursor
                if Set(rows.keys) == wanted { return wanted.sorted().compactMap { rows[$0] } }
            }
        }
    }

    @Test("Refusals, bad parameters, each feed's framing and the recorded events answer as CouchDB's")
    func sameAsCouchDB() async throws {
        let couch = try await LiveCouchDB.connect()
        let existed = try await couch.send("GET", "/_global_changes").status == 200
        if !existed { #expect(try await couch.send("PUT", "/_global_changes").status == 201) }
        let name = "dbupdates-\(UUID().uuidString.prefix(8).lowercased())"
        do {
            try await withServer(TestServer.start()) { server in
                #expect(try await server.client.send("PUT", "/_global_changes", headers: server.auth).status == 201)
                let theirs: Send = { method, path, anonymous in try await couch.client.send(method, path, headers: anonymous ? [:] : couch.auth) }
                let ours: Send = { method, path, anonymous in try await server.client.send(method, path, headers: anonymous ? [:] : server.auth) }

                // Refusals and bad parameters: the same status and body.
                let requests: [(String, String, Bool)] = [
                    ("GET", "/_db_updates", true), ("GET", "/_db_updates?feed=bogus", true), ("GET", "/_global_changes", true),
                    ("GET", "/_global_changes/_changes", true), ("POST", "/_db_updates", false),
                    ("GET", "/_db_updates?feed=bogus", false), ("GET", "/_db_updates?limit=x", false),
                    ("GET", "/_db_updates?limit=-1", false), ("GET", "/_db_updates?limit=", false),
                    ("GET", "/_db_updates?timeout=x", false), ("GET", "/_db_updates?heartbeat=x", false),
                    ("GET", "/_db_updates?heartbeat=-5", false), ("GET", "/_db_updates?heartbeat=TRUE", false),
                    ("GET", "/_db_updates?limit=x&feed=bogus", false), ("GET", "/_db_updates?since=banana", false),
                    ("GET", "/_db_updates?since=1x", false),
                ]
                for (method, path, anonymous) in requests {
                    let (their, our) = (try await theirs(method, path, anonymous), try await ours(method, path, anonymous))
                    #expect(our.status == their.status, "\(method) \(path)")
                    #expect(try our.json() == their.json(), "\(method) \(path)")
                }

                // The same writes on both: a database created, written twice and deleted.
                var since: [String] = []
                for send in [theirs, ours] {
                    since.append(try #require(try await send("GET", "/_db_updates?since=now", false).json().objectValue?["last_seq"]?.stringValue))
                    #expect(try await send("PUT", "/\(name)", false).status == 201)
                }
                for doc in ["a", "b"] {
                    #expect(try await couch.send("PUT", "/\(name)/\(doc)", json: ["v": 1]).status == 201)
                    #expect(try await server.client.send("PUT", "/\(name)/\(doc)", json: ["v": 1], headers: server.auth).status == 201)
                }
                let wanted: Set<String> = ["created:\(name)", "updated:\(name)"]
                let theirRows = try await Self.awaitEvents(theirs, wanted, since: since[0])
                let ourRows = try await Self.awaitEvents(ours, wanted, since: since[1])
                #expect(ourRows.map { $0.filter { $0.key != "seq" } } == theirRows.map { $0.filter { $0.key != "seq" } })
                #expect(ourRows.map { Set($0.keys) } == theirRows.map { Set($0.keys) })
                // The documents behind them: an empty body, CouchDB's revision ID for it.
                let theirDoc = try await theirs("GET", "/_global_changes/created:\(name)", false).json()
                let ourDoc = try await ours("GET", "/_global_changes/created:\(name)", false).json()
                #expect(ourDoc == theirDoc)

                // Each feed's framing, strings aside (sequences, and which events: CouchDB
                // also records its own `_dbs` and whatever else runs beside this test, so
                // every request names how many rows it gets).
                for query in ["since=SINCE&limit=1", "limit=0", "feed=eventsource&timeout=100&since=SINCE&limit=1",
                              "feed=continuous&timeout=100&since=now&limit=0", "feed=longpoll&since=SINCE&limit=1"] {
                    let their = try await theirs("GET", "/_db_updates?" + query.replacingOccurrences(of: "SINCE", with: since[0]), false)
                    let our = try await ours("GET", "/_db_updates?" + query.replacingOccurrences(of: "SINCE", with: since[1]), false)
                    #expect(our.header("Content-Type") == their.header("Content-Type"), "\(query)")
                    #expect(Self.framing(our.body) == Self.framing(their.body), "\(query)")
                }
            }
        } catch {
            await couch.deleteDatabase(name)
            if !existed { await couch.deleteDatabase("_global_changes") }
            throw error
        }
        await couch.deleteDatabase(name)
        if !existed { await couch.deleteDatabase("_global_changes") }
    }

    /// `body` with every JSON string replaced by `"S"`: the framing of a feed, its bytes
    /// between and around the values.
    static func framing(_ body: Data) -> String {
        String(decoding: body, as: UTF8.self).replacing(/"(?:[^"\\]|\\.)*"/) { _ in "\"S\"" }
    }
}
