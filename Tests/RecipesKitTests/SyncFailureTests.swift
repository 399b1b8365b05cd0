import DocumentStore
import Foundation
import Replication
import Testing
@testable import RecipesKit

/// Sync failures a program can switch on, and reports that keep them through the store's
/// sync record.
@Suite struct SyncFailureTests {
    @Test func failuresAreClassifiedThroughTheLayersThatWrapThem() {
        let refused = ReplicationError.unauthorized(url: "http://h/db", reason: "Name or password is incorrect.")
        #expect(SyncFailure(refused).kind == .unauthorized)
        #expect(!SyncFailure(refused).isTransient)
        #expect(SyncFailure(ReplicationError.unreachable(url: "http://h/db", detail: "refused")).kind == .unreachable)
        #expect(SyncFailure(ReplicationError.httpStatus(url: "u", status: 503, error: "service_unavailable", reason: "")).isTransient)
        #expect(!SyncFailure(ReplicationError.httpStatus(url: "u", status: 400, error: "bad_request", reason: "")).isTransient)
        // A replication error wrapped by RecipesKit is still told by what it is.
        let wrapped = RecipesError.store("pull failed", cause: ReplicationError.forbidden(url: "u", reason: "no"))
        #expect(SyncFailure(wrapped).kind == .forbidden)
        #expect(SyncFailure(wrapped).message == "pull failed")
        let store = ReplicationError.store("write failed", cause: DocumentStoreError.storage("disk"))
        #expect(SyncFailure(store).kind == .localStore)
        #expect(SyncFailure(CancellationError()).kind == .cancelled)
        struct Unknown: Error {}
        #expect(SyncFailure(Unknown()).kind == .other)
    }

    @Test func aReportKeepsItsFailureAndTimesThroughJSON() throws {
        let started = Date(timeIntervalSince1970: 1_764_000_000)
        let failure = SyncFailure(kind: .unreachable, message: "pull failed: offline", isTransient: true)
        let report = SyncReport(
            result: .failed, direction: .both, remote: "http://h/db", startedAt: started,
            finishedAt: started.addingTimeInterval(3), pulled: 0, pushed: 0, conflictsResolved: 0, refusedDocuments: [],
            error: failure, steps: [.init(name: "pull", state: .failed, error: failure), .init(name: "push", state: .cancelled, error: nil)])
        let data = try JSONEncoder().encode(report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["startedAt"] as? String == "2025-11-24T16:00:00Z")
        #expect(object["errorKind"] as? String == "unreachable")
        #expect(object["retryable"] as? Bool == true)
        #expect(try JSONDecoder().decode(SyncReport.self, from: data) == report)
    }

    @Test func aReportSavedBeforeFailuresHadKindsStillReads() throws {
        let saved = Data("""
            {"result":"failed","direction":"both","remote":"r","startedAt":"2025-01-02T03:04:05Z",
             "finishedAt":"2025-01-02T03:04:06Z","pulled":0,"pushed":0,"conflictsResolved":0,"refused":0,
             "error":"pull failed: x","steps":[{"name":"pull","state":"failed","error":"x"}]}
            """.utf8)
        let report = try JSONDecoder().decode(SyncReport.self, from: saved)
        #expect(report.error == SyncFailure(kind: .other, message: "pull failed: x"))
        #expect(report.steps.first?.error?.message == "x")
        #expect(report.finishedAt.timeIntervalSince(report.startedAt) == 1)
    }
}
