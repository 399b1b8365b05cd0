import DocumentStore
import Foundation
import Replication
import Testing
import TestSupport
import DocumentFormat

/// A local store failure met during replication keeps the datastore's error.
@Suite("Replication store failures keep their cause")
struct StoreFailureCauseTests {
    @Test func aLocalPeersDatastoreErrorIsKeptAsTheCause() async throws {
        let directory = try TemporaryDirectory()
        let peer = LocalDatabase(store: try DocumentStore(path: directory.path("peer.sqlite")))
        let rev = try #require(RevisionID("1-967a00dff5e02add41819138abb3284d"))
        do {
            _ = try await peer.attachment(documentID: "missing", rev: rev, name: "photo")
            Issue.record("a missing attachment was read")
        } catch ReplicationError.store(let message, let cause?) {
            let datastore = try #require(cause as? DocumentStoreError)
            guard case .notFound = datastore else {
                Issue.record("expected notFound, got \(datastore)")
                return
            }
            #expect(message == datastore.description)
            #expect(ReplicationError.store(message, cause: cause).description == "local store failed: \(datastore.description)")
        }
    }

    @Test func storeErrorsCompareTheirCauses() {
        let cause = DocumentStoreError.notFound(id: "a")
        #expect(ReplicationError.store("failed", cause: cause) == .store("failed", cause: DocumentStoreError.notFound(id: "a")))
        #expect(ReplicationError.store("failed", cause: cause) != .store("failed", cause: DocumentStoreError.notFound(id: "b")))
        #expect(ReplicationError.store("failed", cause: cause) != .store("failed"))
        #expect(ReplicationError.store("failed") == .store("failed"))
        #expect(ReplicationError.timedOut(url: "u") != .store("failed"))
    }
}
