import DocumentStore
import Foundation
import Testing
@testable import Replication
import DocumentFormat

/// Where a replication resumes, from the two checkpoint copies and the source's instance.
@Suite struct CheckpointComparisonTests {
    /// A checkpoint as the replicator writes it: `session` last, `older` sessions before it.
    private func checkpoint(session: String, seq: Int64, older: [(String, Int64)] = [], instance: String? = "db-1",
                            refused: Bool = false) -> JSONObject {
        var history: [JSONValue] = [["session_id": .string(session), "recorded_seq": .int(seq)]]
        for (id, recorded) in older { history.append(["session_id": .string(id), "recorded_seq": .int(recorded)]) }
        var body: JSONObject = ["session_id": .string(session), "source_last_seq": .int(seq), "history": .array(history)]
        if let instance { body[ReplicationCheckpoint.sourceInstanceKey] = .string(instance) }
        if refused { body["peer_refused_checkpoint"] = true }
        return body
    }

    @Test func sameSessionResumesFromTheSourcesSequence() {
        let start = ReplicationCheckpoint.startSequence(
            source: checkpoint(session: "s2", seq: 9), target: checkpoint(session: "s2", seq: 9), sourceInstance: "db-1")
        #expect(start == ReplicationSequence(.int(9)))
    }

    @Test func differentSessionsFallBackToTheNewestSharedHistoryEntry() {
        let source = checkpoint(session: "s3", seq: 12, older: [("s2", 9), ("s1", 4)])
        let target = checkpoint(session: "s4", seq: 15, older: [("s1", 4), ("s2", 9)])
        #expect(ReplicationCheckpoint.startSequence(source: source, target: target, sourceInstance: "db-1")
            == ReplicationSequence(.int(9)))
    }

    @Test func nothingInCommonStartsFromTheStart() {
        let source = checkpoint(session: "s3", seq: 12, older: [("s1", 4)])
        let target = checkpoint(session: "s4", seq: 15, older: [("s2", 9)])
        #expect(ReplicationCheckpoint.startSequence(source: source, target: target, sourceInstance: "db-1") == nil)
    }

    @Test func aMissingCopyStartsFromTheStart() {
        let copy = checkpoint(session: "s1", seq: 7)
        #expect(ReplicationCheckpoint.startSequence(source: nil, target: copy, sourceInstance: "db-1") == nil)
        #expect(ReplicationCheckpoint.startSequence(source: copy, target: nil, sourceInstance: "db-1") == nil)
    }

    @Test func aCheckpointOfAnotherSourceInstanceIsNeverTrusted() {
        let copy = checkpoint(session: "s1", seq: 7, instance: "db-1")
        #expect(ReplicationCheckpoint.startSequence(source: copy, target: copy, sourceInstance: "db-2") == nil)
        #expect(ReplicationCheckpoint.startSequence(source: copy, target: copy, sourceInstance: nil) == nil)
        // Copies from before instances were recorded still compare by session.
        let old = checkpoint(session: "s1", seq: 7, instance: nil)
        #expect(ReplicationCheckpoint.startSequence(source: old, target: old, sourceInstance: "db-2") == ReplicationSequence(.int(7)))
    }

    @Test func aLoneCopyMarkedRefusedIsTrustedOnlyForTheSameSourceInstance() {
        let refused = checkpoint(session: "s1", seq: 7, instance: "db-1", refused: true)
        #expect(ReplicationCheckpoint.startSequence(source: nil, target: refused, sourceInstance: "db-1")
            == ReplicationSequence(.int(7)))
        #expect(ReplicationCheckpoint.startSequence(source: nil, target: refused, sourceInstance: "db-2") == nil)
        #expect(ReplicationCheckpoint.startSequence(source: nil, target: refused, sourceInstance: nil) == nil)
        let unnamed = checkpoint(session: "s1", seq: 7, instance: nil, refused: true)
        #expect(ReplicationCheckpoint.startSequence(source: nil, target: unnamed, sourceInstance: "db-1") == nil)
    }

    @Test func theBodyRecordsTheSourceInstance() {
        let body = ReplicationCheckpoint.body(sessionID: "s1", startTime: .now, startSequence: nil,
                                              recorded: ReplicationSequence(.int(3)), progress: ReplicationProgress(),
                                              previous: nil, peerRefused: false, sourceInstance: "db-9")
        #expect(body[ReplicationCheckpoint.sourceInstanceKey] == "db-9")
        #expect(ReplicationCheckpoint.startSequence(source: body, target: body, sourceInstance: "db-9") == ReplicationSequence(.int(3)))
    }
}
