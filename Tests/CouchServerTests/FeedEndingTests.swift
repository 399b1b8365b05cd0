import InteropSupport
import CouchServer
import DocumentStore
import Foundation
import Testing
import TestSupport
import DocumentFormat

/// Open feeds end with whole JSON when their database is deleted, and a delete racing
/// writes answers every request with CouchDB's codes, never a 500 (issue #9).
@Suite struct FeedEndingTests {
    /// The rows of a continuous feed: each non-empty line must be a JSON object.
    static func continuousLines(_ body: Data) throws -> [JSONObject] {
        let text = try #require(String(data: body, encoding: .utf8))
        return try text.split(separator: "\n").map { line in
            try #require(try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)).objectValue)
        }
    }

    /// Checks a longpoll body: one complete `{"results":[...],"last_seq":...}` object.
    static func expectCompleteLongpoll(_ body: Data) throws {
        let object = try #require(try JSONDecoder().decode(JSONValue.self, from: body).objectValue)
        #expect(object["results"]?.arrayValue != nil)
        #expect(object["last_seq"] != nil)
    }

    @Test("Deleting a database ends its open longpoll and continuous feeds with valid JSON")
    func deleteEndsOpenFeeds() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            let client = server.client
            #expect(try await client.send("PUT", "/db", headers: server.auth).status == 201)
            #expect(try await client.send("PUT", "/db/a", json: ["n": 1], headers: server.auth).status == 201)
            let port = try #require(server.server.port)
            // Both feeds are open once each has sent its first heartbeat. Their own timeout is an
            // hour, so a feed that ends within the reads' 60 s guard was ended by the delete.
            let longpoll = try await RawHTTPConnection.openFeed("/db/_changes?feed=longpoll&since=now&heartbeat=200&timeout=3600000", port: port)
            let continuous = try await RawHTTPConnection.openFeed("/db/_changes?feed=continuous&since=now&heartbeat=200&timeout=3600000", port: port)
            #expect(try await client.send("DELETE", "/db", headers: server.auth).status == 200)
            let polled = try await longpoll.readStreamedReply(timeout: 60)
            let streamed = try await continuous.readStreamedReply(timeout: 60)
            #expect(polled.status == 200)
            try Self.expectCompleteLongpoll(polled.body)
            let lines = try Self.continuousLines(streamed.body)
            #expect(lines.last?["last_seq"] != nil)
            #expect(try await client.send("GET", "/db").status == 404)
        }
    }

    @Test("A database delete racing writes gives 201, 404 or 409 to every request, never 500")
    func deleteRacingWrites() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            let client = server.client
            let auth = server.auth
            for round in 0..<4 {
                #expect(try await client.send("PUT", "/race", headers: auth).status == 201)
                let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
                    for writer in 0..<12 {
                        group.addTask {
                            var seen: [Int] = []
                            for index in 0..<6 {
                                let docs: [JSONValue] = (0..<40).map { .object(["_id": .string("r\(round)-w\(writer)-\(index)-\($0)"), "n": .int(Int64($0))]) }
                                let reply = try await client.send("POST", "/race/_bulk_docs", json: ["docs": .array(docs)], headers: auth)
                                seen.append(reply.status)
                                let read = try await client.send("GET", "/race/_changes?limit=5")
                                seen.append(read.status)
                            }
                            return seen
                        }
                    }
                    group.addTask {
                        // The scenario: the delete lands while the writers are under way.
                        try await simulatedDelay(.milliseconds(30))
                        return [try await client.send("DELETE", "/race", headers: auth).status]
                    }
                    var all: [Int] = []
                    for try await part in group { all += part }
                    return all
                }
                #expect(statuses.allSatisfy { [200, 201, 404, 409].contains($0) }, "round \(round): \(statuses.filter { $0 >= 500 })")
                _ = try await client.send("DELETE", "/race", headers: auth)
            }
        }
    }
}
