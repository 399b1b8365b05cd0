import InteropSupport
import DocumentStore
import Foundation
import Testing
import TestSupport
import DocumentFormat

/// Replays the direct calls of `endpoints.jsonl` (errors included) against a server seeded
/// with the same documents, expecting CouchDB's status codes, error names and reply shapes.
@Suite("CouchDB endpoint replay")
struct EndpointReplayTests {
    @Test("Every recorded endpoint call gets CouchDB's status and reply shape")
    func endpoints() async throws {
        try await withServer(ReplicatorReplayTests.seededServer()) { server, seeded in
            var replayer = Replayer(client: server.client)
            replayer.cookie = seeded.cookie
            let exchanges = try Recording.load("endpoints.jsonl")
            var writtenLocals = Set<String>()
            for exchange in exchanges {
                let reply = try await replayer.replay(exchange)
                let label = "\(exchange.method) \(exchange.path)"
                // CouchDB refuses a sorted _find without a matching index; this server's store
                // can sort without one, so that one refusal is not reproduced.
                if exchange.responseJSON?.objectValue?["error"] == "no_usable_index" {
                    #expect(reply.status == 200, "\(label)")
                    continue
                }
                // CouchDB 3.4.3 lets a PUT without `_rev` overwrite an existing local document (and
                // restarts its revision at 0-1); this server refuses it with 409, so a stale writer
                // cannot silently replace a replication checkpoint (issue #9).
                let localRewrite = exchange.method == "PUT" && exchange.path.contains("/_local/")
                    && (try? JSONValue.parse(exchange.requestBody))?.objectValue?["_rev"] == nil
                    && writtenLocals.contains(exchange.path)
                if exchange.method == "PUT", exchange.path.contains("/_local/"), exchange.status == 201 {
                    writtenLocals.insert(exchange.path)
                }
                if localRewrite {
                    #expect(reply.status == 409, "\(label)")
                    #expect(try reply.json() == ["error": "conflict", "reason": "Document update conflict."], "\(label)")
                    continue
                }
                #expect(reply.status == exchange.status, "\(label): \(reply.status) \(String(decoding: reply.body, as: UTF8.self))")
                guard let theirs = exchange.responseJSON,
                      (exchange.responseHeader("Content-Type") ?? "").hasPrefix("application/json")
                else {
                    if exchange.status == 200, exchange.path.hasSuffix("/thumbnailImage") {
                        #expect(reply.body == exchange.responseBody, "\(label): attachment bytes differ")
                        #expect(reply.header("Content-Type") == "image/jpeg")
                    }
                    continue
                }
                let ours = try reply.json()
                #expect(Shape.differences(ours, theirs).isEmpty, "\(label): \(Shape.differences(ours, theirs))")
                if let error = theirs.objectValue?["error"], exchange.status >= 400 {
                    #expect(ours.objectValue?["error"] == error, "\(label)")
                    #expect(ours.objectValue?["reason"] == theirs.objectValue?["reason"], "\(label)")
                }
            }
        }
    }
}
