import CouchProtocol
import DocumentStore
import Foundation
import Testing
@testable import Replication
import TestSupport
import DocumentFormat

/// Numbers a remote sends are untrusted: each is held to its range where the reply is read,
/// so an absurd one fails the replication with a typed error naming the remote and the
/// field (or refuses the revision) instead of overflowing later.
@Suite struct RemoteNumberTests {
    static let changesTemplate = #"{"results":[{"seq":"3-g1AAAA","id":"doc1","changes":[{"rev":"REV"}]}],"last_seq":"3-g1AAAA","pending":PENDING}"#

    /// A source whose `_changes` and `_bulk_get` replies are given; everything else as in
    /// ``HTTPFailureTests/source(_:)``.
    static func source(changes: String, bulkGet: String = HTTPFailureTests.bulkGet) async throws -> CannedResponder {
        try await HTTPFailureTests.source { request, _ in
            switch request.path {
            case "/db/_changes": return .init(status: 200, body: changes)
            case "/db/_bulk_get": return .init(status: 200, body: bulkGet)
            default: return nil
            }
        }
    }

    /// Pulls from `server`, expecting a `malformedReply` naming the remote; returns its detail.
    func failedPullDetail(_ server: CannedResponder, into local: DocumentStore) async throws -> String {
        let sync = try Sync(store: local, remoteURL: server.url("db", user: "bob", password: "s3cret-pw"))
        do {
            _ = try await sync.pull()
        } catch let error as ReplicationError {
            guard case .malformedReply(let url, let detail) = error else {
                Issue.record("expected a malformed reply, got \(error)")
                return ""
            }
            #expect(url.contains("127.0.0.1:\(server.port)/db"))
            #expect(!"\(error)".contains("s3cret-pw"))
            return detail
        }
        Issue.record("the pull succeeded")
        return ""
    }

    @Test func pendingPastTheRangeFailsThePullNamingTheField() async throws {
        let changes = Self.changesTemplate.replacingOccurrences(of: "REV", with: "1-aaaa")
            .replacingOccurrences(of: "PENDING", with: "9223372036854775807")
        let server = try await Self.source(changes: changes)
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let local = try DocumentStore(path: dir.path("local.sqlite"))
        let detail = try await failedPullDetail(server, into: local)
        #expect(detail.contains("'pending'") && detail.contains("9223372036854775807"))
        #expect(try local.get(id: "doc1") == nil)
    }

    @Test func negativeAndFractionalPendingAreRefusedAndTheLargestAllowedOneIsNot() throws {
        for bad in ["-1", "1.5", "9007199254740992"] {
            let reply = try JSONValue.parse(Data(Self.changesTemplate.replacingOccurrences(of: "REV", with: "1-aaaa")
                .replacingOccurrences(of: "PENDING", with: bad).utf8))
            #expect(throws: ReplyShapeError.self) { try ChangesPage(json: reply) }
        }
        let reply = try JSONValue.parse(Data(Self.changesTemplate.replacingOccurrences(of: "REV", with: "1-aaaa")
            .replacingOccurrences(of: "PENDING", with: "9007199254740991").utf8))
        #expect(try ChangesPage(json: reply).pending == 9_007_199_254_740_991)
    }

    @Test func aRevisionWhoseGenerationCannotBeIncrementedIsNeverPulled() async throws {
        let changes = Self.changesTemplate.replacingOccurrences(of: "REV", with: "9223372036854775807-aaaa")
            .replacingOccurrences(of: "PENDING", with: "0")
        let server = try await Self.source(changes: changes)
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let local = try DocumentStore(path: dir.path("local.sqlite"))
        let detail = try await failedPullDetail(server, into: local)
        #expect(detail.contains("doc1") && detail.contains("invalid rev"))
        #expect(try local.get(id: "doc1") == nil)
    }

    @Test func aHistoryStartingPastTheGenerationLimitIsNeverPulled() async throws {
        let changes = Self.changesTemplate.replacingOccurrences(of: "REV", with: "1-aaaa")
            .replacingOccurrences(of: "PENDING", with: "0")
        let bulkGet = #"{"results":[{"id":"doc1","docs":[{"ok":{"_id":"doc1","_rev":"1-aaaa","name":"Soup","_revisions":{"start":9223372036854775807,"ids":["aaaa"]}}}]}]}"#
        let server = try await Self.source(changes: changes, bulkGet: bulkGet)
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let local = try DocumentStore(path: dir.path("local.sqlite"))
        let detail = try await failedPullDetail(server, into: local)
        #expect(detail.contains("_revisions"))
        #expect(try local.get(id: "doc1") == nil)
    }

    @Test func anAttachmentLengthPastTheRangeFailsThePull() async throws {
        let changes = Self.changesTemplate.replacingOccurrences(of: "REV", with: "1-aaaa")
            .replacingOccurrences(of: "PENDING", with: "0")
        let bulkGet = #"{"results":[{"id":"doc1","docs":[{"ok":{"_id":"doc1","_rev":"1-aaaa","_revisions":{"start":1,"ids":["aaaa"]},"_attachments":{"a.txt":{"content_type":"text/plain","revpos":1,"digest":"md5-x","length":9223372036854775807,"stub":true},"b.txt":{"content_type":"text/plain","revpos":1,"digest":"md5-y","length":9223372036854775807,"stub":true}}}}]}]}"#
        let server = try await Self.source(changes: changes, bulkGet: bulkGet)
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let local = try DocumentStore(path: dir.path("local.sqlite"))
        let detail = try await failedPullDetail(server, into: local)
        #expect(detail.contains("length"))
        #expect(try local.get(id: "doc1") == nil)
    }

    @Test func checkpointsAreWrittenWithTheRevisionLastRead() async throws {
        // A remote that versions local documents as CouchDB does: an update without the
        // current `_rev` is a conflict.
        let locals = VersionedLocalDocuments()
        let feedCalls = Locked(0)
        let server = try await HTTPFailureTests.source { request, _ in
            if request.path == "/db/_changes" {
                // A new last_seq on every read, so every pull records a checkpoint.
                let seq = feedCalls.withLock { calls -> Int in calls += 1; return calls + 2 }
                return .init(status: 200, body: HTTPFailureTests.changes.replacingOccurrences(of: "3-g1AAAA", with: "\(seq)-g1AAAA"))
            }
            return locals.reply(to: request)
        }
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let local = try DocumentStore(path: dir.path("local.sqlite"))
        for _ in 0..<3 {
            _ = try await Sync(store: local, remoteURL: server.url("db")).pull()
        }
        #expect(locals.conflicts.withLock { $0 } == 0)
        let revs = locals.revisions
        #expect(revs.count == 1 && (revs.first ?? 0) >= 3)
    }
}
