import Foundation
import InteropSupport
import Testing
@testable import Replication
import TestSupport
import DocumentStore
import Logging

/// What the HTTP client does at its limits: a reply longer than it holds in memory, and a
/// server that refuses connections.
@Suite struct HTTPClientLimitsTests {
    @Test func aReplyLongerThanTheLimitIsMalformedNotRetriedAndChangesNothing() async throws {
        let long = #"{"results":[],"last_seq":"0","padding":""# + String(repeating: "x", count: 4096) + #""}"#
        let server = try await HTTPFailureTests.source { request, _ in
            request.path == "/db/_changes" ? .init(status: 200, body: long) : nil
        }
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let local = try DocumentStore(path: dir.path("local.sqlite"))
        var options = CouchClientOptions()
        options.maximumReplyBytes = 1024
        options.initialBackoff = 0.01
        let error = await #expect(throws: ReplicationError.self) {
            _ = try await Sync(store: local, remote: try CouchDatabase(url: server.url("db"), options: options)).pull()
        }
        guard case .malformedReply(_, let detail) = error else {
            Issue.record("expected malformedReply, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("GET /db/_changes") && detail.contains("1024 bytes"), "\(detail)")
        #expect(server.requests.filter { $0.path == "/db/_changes" }.count == 1)
        #expect(try local.documentCount() == 0)
    }

    @Test func aRefusedConnectionIsRetriedWithTheBackoffThenReportedWithItsCause() async throws {
        let reserved = try TemporaryPort()  // refused for as long as the test runs
        let port = reserved.number
        var options = CouchClientOptions()
        options.maxRetries = 2
        options.initialBackoff = 0.01
        let log = RecordingLogHandler()
        let remote = try CouchDatabase(url: "http://bob:secret@127.0.0.1:\(port)/db", options: options, logger: log.logger())
        let error = await #expect(throws: ReplicationError.self) { _ = try await remote.databaseInfo() }
        guard case .unreachable(let url, let detail) = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("Connection refused"), "\(detail)")
        #expect(!url.contains("secret") && !detail.contains("secret"))
        // Three attempts, each refused (not waiting out the 30 s connect timeout: the pool's
        // own retries are off), with the backoff doubling between them, as the client recorded.
        let retries = log.logged.filter { $0.metadata["retry"] != nil }
        #expect(retries.map { $0.metadata["retry"]?.description } == ["1", "2"], "\(retries.map(\.message))")
        #expect(retries.map { $0.metadata["delay"]?.description } == ["0.01", "0.02"], "\(retries.map(\.message))")
        #expect(retries.allSatisfy { $0.level == .warning && $0.message.contains("Connection refused") && !$0.message.contains("secret") },
                "\(retries.map(\.message))")
        withExtendedLifetime(reserved) {}
    }
}
