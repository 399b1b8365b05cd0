import InteropSupport
import CouchServer
import DocumentStore
import Foundation
import Testing
import TestSupport
import DocumentFormat

/// What a request body may cost: nothing before the request is authenticated, a bounded share
/// of a server-wide budget after, and a bounded number of entries.
@Suite("CouchServer body limits")
struct BodyLimitsTests {
    /// A request head for `path` on `port`, with `extra` header lines.
    static func head(_ method: String, _ path: String, port: Int, _ extra: [String]) -> [String] {
        ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)"] + extra
    }

    /// Waits for the event "a request holds the server's whole body budget": a one-byte
    /// chunked body, which reserves as it arrives and never waits, is then refused with 503
    /// (until then it is read, and refused as bad JSON).
    static func waitUntilBudgetIsHeld(port: Int, auth: [String]) async throws {
        let held = try await waitUntil(timeout: 60, interval: .milliseconds(20)) {
            let probe = try RawHTTPConnection(port: port)
            try await probe.sendHead(head("POST", "/db/_bulk_docs", port: port, [
                "Content-Type: application/json", "Transfer-Encoding: chunked", "Connection: close",
            ] + auth))
            try await probe.send(Data("1\r\n \r\n0\r\n\r\n".utf8))
            return try await probe.readReply().status == 503
        }
        try #require(held, "the first request never took the body budget")
    }

    @Test("An unauthenticated POST gets 401 from its head alone, before a byte of its body, whatever its size")
    func unauthenticatedBodyIsNeverRead() async throws {
        try await withServer(TestServer.start { $0.maxRequestBodySize = 4096 }) { server in
            let port = try #require(server.server.port)
            #expect(try await server.client.send("PUT", "/db", headers: server.auth).status == 201)

            // 60 MB announced, none sent: the answer cannot depend on reading the body.
            let connection = try RawHTTPConnection(port: port)
            try await connection.sendHead(Self.head("POST", "/db/_bulk_docs", port: port, [
                "Content-Type: application/json", "Content-Length: \(60 * 1024 * 1024)", "Connection: close",
            ]))
            let refused = try await connection.readReply()
            #expect(refused.status == 401)
            #expect(try refused.json() == AccessModelTests.notAuthorized)

            // Over the size limit too, it is refused for its missing credentials, not read for 413.
            let oversize = try await server.client.send(
                "POST", "/db/_bulk_docs", headers: ["Content-Type": "application/json"], body: Data(repeating: 0x20, count: 1 << 20))
            #expect(oversize.status == 401)
            // With credentials, the same oversize body is 413, also without being buffered.
            let withUser = try RawHTTPConnection(port: port)
            try await withUser.sendHead(Self.head("POST", "/db/_bulk_docs", port: port, [
                "Content-Type: application/json", "Content-Length: \(60 * 1024 * 1024)", "Connection: close",
            ] + server.auth.map { "\($0.key): \($0.value)" }))
            let tooLarge = try await withUser.readReply()
            #expect(tooLarge.status == 413)
            #expect(try RequestHardeningTests.error(tooLarge) == "too_large")
            try await RequestHardeningTests.expectAlive(server)
        }
    }

    @Test("Bodies share one budget: a request waits while others hold it, GET / still answers, and a long wait is 503")
    func bodyBudget() async throws {
        try await withServer(TestServer.start {
            $0.maxRequestBodySize = 2000
            $0.maxBufferedBodyBytes = 3000
            // Long enough that the GET / below is answered while the body still waits, even on
            // a slow and busy machine: the test checks that order, not a duration.
            $0.bodyBudgetWait = .seconds(15)
        }) { server in
            let port = try #require(server.server.port)
            #expect(try await server.client.send("PUT", "/db", headers: server.auth).status == 201)
            let auth = server.auth.map { "\($0.key): \($0.value)" }
            // Padded with whitespace: 1,720 bytes to hold, little to build when parsed, so the one
            // being served fits its parse beside its body while a second body does not fit.
            let document = Data((#"{"docs":[{"_id":"x"}]}"# + String(repeating: " ", count: 1700)).utf8)

            // The first request reserves its 1,720 bytes and sends only part of them.
            let holder = try RawHTTPConnection(port: port)
            try await holder.sendHead(Self.head("POST", "/db/_bulk_docs", port: port, [
                "Content-Type: application/json", "Content-Length: \(document.count)", "Connection: close",
            ] + auth))
            try await holder.send(document.prefix(10))
            try await Self.waitUntilBudgetIsHeld(port: port, auth: auth)

            // The second cannot fit: it waits, and gives up with 503 when the wait runs out.
            let waiter = try RawHTTPConnection(port: port)
            try await waiter.sendHead(Self.head("POST", "/db/_bulk_docs", port: port, [
                "Content-Type: application/json", "Content-Length: \(document.count)", "Connection: close",
            ] + auth))
            try await waiter.send(document)
            await #expect(throws: RawHTTPError.self) { _ = try await waiter.readReply(timeout: 0.5) }
            #expect(try await server.client.send("GET", "/").status == 200)
            // GET / was answered while the body was still waiting, not behind it.
            await #expect(throws: RawHTTPError.self, "the waiting body was answered before GET / was") {
                _ = try await waiter.readReply(timeout: 0.05)
            }
            let gaveUp = try await waiter.readReply(timeout: 30)
            #expect(gaveUp.status == 503)
            #expect(try RequestHardeningTests.error(gaveUp) == "service_unavailable")

            // A third waits its turn and is served once the first has finished.
            let third = try RawHTTPConnection(port: port)
            let other = Data(String(decoding: document, as: UTF8.self).replacingOccurrences(of: "\"x\"", with: "\"y\"").utf8)
            try await third.sendHead(Self.head("POST", "/db/_bulk_docs", port: port, [
                "Content-Type: application/json", "Content-Length: \(other.count)", "Connection: close",
            ] + auth))
            try await third.send(other)
            // A negative check over a bounded window: while the first holds the budget, the
            // third is not served.
            await #expect(throws: RawHTTPError.self) { _ = try await third.readReply(timeout: 0.3) }
            try await holder.send(document.dropFirst(10))
            #expect(try await holder.readReply().status == 201)
            #expect(try await third.readReply().status == 201)
            let count = try await server.client.send("GET", "/db", headers: server.auth).json().objectValue?["doc_count"]
            #expect(count == 2)
        }
    }

    @Test("What a body's JSON builds counts against the budget: 413 past it, and the server answers on")
    func parsedMemoryIsBudgeted() async throws {
        try await withServer(TestServer.start {
            $0.maxRequestBodySize = 200_000
            $0.maxBufferedBodyBytes = 1_000_000
        }) { server in
            #expect(try await server.client.send("PUT", "/db", headers: server.auth).status == 201)
            // 100 KB of `0,` builds 50,000 values, far more than the 1 MB budget once parsed.
            let values = Array(repeating: "0", count: 50_000).joined(separator: ",")
            let dense = Data(#"{"keys":["#.utf8) + Data(values.utf8) + Data("]}".utf8)
            #expect(dense.count < 200_000)
            let refused = try await server.client.send(
                "POST", "/db/_all_docs", headers: server.auth.merging(["Content-Type": "application/json"]) { $1 }, body: dense)
            #expect(refused.status == 413)
            #expect(try RequestHardeningTests.error(refused) == "too_large")
            // A shorter key list is answered afterwards: what the refused request held was given back.
            let keys = JSONValue.array((0..<2_000).map { .string("k\($0)") })
            let answered = try await server.client.send("POST", "/db/_all_docs", json: ["keys": keys], headers: server.auth)
            #expect(answered.status == 200)
            #expect(try answered.json().objectValue?["rows"]?.arrayValue?.count == 2_000)
            try await RequestHardeningTests.expectAlive(server)
        }
    }

    @Test("A chunked body reserves as it arrives: 503 at once when the budget is taken, 413 past the size limit")
    func chunkedBodies() async throws {
        try await withServer(TestServer.start {
            $0.maxRequestBodySize = 1000
            $0.maxBufferedBodyBytes = 1000
        }) { server in
            let port = try #require(server.server.port)
            #expect(try await server.client.send("PUT", "/db", headers: server.auth).status == 201)
            let auth = server.auth.map { "\($0.key): \($0.value)" }
            func chunked(_ data: Data) -> Data {
                Data(String(data.count, radix: 16).utf8) + Data("\r\n".utf8) + data + Data("\r\n0\r\n\r\n".utf8)
            }
            let head = Self.head("POST", "/db/_bulk_docs", port: port, [
                "Content-Type: application/json", "Transfer-Encoding: chunked", "Connection: close",
            ] + auth)

            // Within the budget, a chunked body is read and written like any other.
            let fits = try RawHTTPConnection(port: port)
            try await fits.sendHead(head)
            try await fits.send(chunked(Data(#"{"docs":[{"_id":"chunked"}]}"#.utf8)))
            #expect(try await fits.readReply().status == 201)

            // Past the size limit: 413.
            let oversize = try RawHTTPConnection(port: port)
            try await oversize.sendHead(head)
            try await oversize.send(chunked(Data(repeating: 0x20, count: 1500)))
            let tooLarge = try await oversize.readReply()
            #expect(tooLarge.status == 413)

            // While a declared body holds 800 of the 1000 bytes, a 500-byte chunked one gets 503 without waiting.
            let holder = try RawHTTPConnection(port: port)
            try await holder.sendHead(Self.head("POST", "/db/_bulk_docs", port: port, [
                "Content-Type: application/json", "Content-Length: 800", "Connection: close",
            ] + auth))
            try await holder.send(Data("{".utf8))
            try await Self.waitUntilBudgetIsHeld(port: port, auth: auth)
            let refused = try RawHTTPConnection(port: port)
            try await refused.sendHead(head)
            try await refused.send(chunked(Data(repeating: 0x20, count: 500)))
            let unavailable = try await refused.readReply()
            #expect(unavailable.status == 503)
            #expect(try RequestHardeningTests.error(unavailable) == "service_unavailable")
            try await RequestHardeningTests.expectAlive(server)
        }
    }

    @Test("_all_docs keys, _bulk_get docs, _revs_diff IDs and _bulk_docs docs are capped per request")
    func entryCaps() async throws {
        try await withServer(TestServer.start { $0.maxEntriesPerRequest = 3 }) { server in
            #expect(try await server.client.send("PUT", "/db", headers: server.auth).status == 201)
            func ids(_ count: Int) -> [JSONValue] { (0..<count).map { .string("d\($0)") } }
            func requests(_ count: Int) -> [(String, JSONValue)] {
                [
                    ("/db/_all_docs", ["keys": .array(ids(count))]),
                    ("/db/_bulk_get", ["docs": .array(ids(count).map { ["id": $0] })]),
                    ("/db/_revs_diff", .object(JSONObject(uniqueKeysWithValues: ids(count).map { ($0.stringValue!, ["1-a"]) }))),
                    ("/db/_bulk_docs", ["docs": .array(ids(count).map { ["_id": $0] })]),
                ]
            }
            for (path, body) in requests(4) {
                let reply = try await server.client.send("POST", path, json: body, headers: server.auth)
                #expect(reply.status == 400, "\(path)")
                #expect(try RequestHardeningTests.error(reply) == "bad_request", "\(path)")
            }
            let keysInQuery = "%5B%22a%22,%22b%22,%22c%22,%22d%22%5D"
            #expect(try await server.client.send("GET", "/db/_all_docs?keys=\(keysInQuery)", headers: server.auth).status == 400)
            #expect(try await server.client.send("GET", "/db", headers: server.auth).json().objectValue?["doc_count"] == 0)
            for (path, body) in requests(3) {
                let reply = try await server.client.send("POST", path, json: body, headers: server.auth)
                #expect((200..<300).contains(reply.status), "\(path)")
            }
            #expect(try await server.client.send("GET", "/db", headers: server.auth).json().objectValue?["doc_count"] == 3)
        }
    }

    @Test("The default cap is 100,000 entries")
    func defaultEntryCap() async throws {
        try await withServer(TestServer.start()) { server in
            #expect(try await server.client.send("PUT", "/db", headers: server.auth).status == 201)
            let keys = JSONValue.array((0...100_000).map { .string("k\($0)") })
            let reply = try await server.client.send("POST", "/db/_all_docs", json: ["keys": keys], headers: server.auth)
            #expect(reply.status == 400)
            #expect(String(decoding: reply.body, as: UTF8.self).contains("100000"))
        }
    }
}
