import Foundation
import Testing
@testable import DocumentStore
import DocumentFormat

/// What a store remembers other databases holding (the Replication article "Checkpoints,
/// No Echo and Conflicts", section "No echo"), and the look-ups a sync makes on every run,
/// which must not read every document.
@Suite struct PeerRevisionTests {
    private func revision(_ text: String) -> RevisionID { RevisionID(text)! }

    @Test func forgettingOtherInstancesKeepsTheCurrentOneAndOtherDatabases() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let held = ["a": [revision("1-" + String(repeating: "a", count: 32))], "b": [revision("2-" + String(repeating: "b", count: 32))]]
        for peer in ["http://h/db@1", "http://h/db@2", "http://h/db@3", "http://h/db2@1", "http://h/da@9"] {
            try store.recordRevisions(held, heldBy: peer)
        }
        try store.forgetPeers(withPrefix: "http://h/db@", except: "http://h/db@2")
        #expect(try store.recordedDocumentCount(heldBy: "http://h/db@1") == 0)
        #expect(try store.recordedDocumentCount(heldBy: "http://h/db@2") == 2)
        #expect(try store.recordedDocumentCount(heldBy: "http://h/db@3") == 0)
        #expect(try store.recordedDocumentCount(heldBy: "http://h/db2@1") == 2)
        #expect(try store.recordedDocumentCount(heldBy: "http://h/da@9") == 2)
        #expect(try store.documentsHeld(held, by: "http://h/db@2") == ["a", "b"])
        // Without an instance to keep, every instance of the database goes.
        try store.forgetPeers(withPrefix: "http://h/db@", except: nil)
        #expect(try store.recordedDocumentCount(heldBy: "http://h/db@2") == 0)
        #expect(try store.recordedDocumentCount(heldBy: "http://h/db2@1") == 2)
    }

    @Test func conflictedIDsComeInByteOrderFromThePartialIndex() throws {
        let (store, directory) = try makeStore()
        _ = directory
        for id in ["b", "a", "é", "z", "B"] {
            try store.insertRevisions([
                ReplicatedRevision(id: id, rev: revision("1-" + String(repeating: "a", count: 32)), body: ["v": 1]),
                ReplicatedRevision(id: id, rev: revision("1-" + String(repeating: "b", count: 32)), body: ["v": 2]),
            ])
        }
        _ = try store.create(id: "plain", body: ["v": 0])
        #expect(try store.conflictedDocumentIDs() == ["B", "a", "b", "z", "é"])
        #expect(try store.conflictedDocumentCount() == 5)
    }
}
