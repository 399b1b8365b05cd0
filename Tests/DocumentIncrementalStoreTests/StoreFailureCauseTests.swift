import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore
import TestSupport

/// A datastore failure keeps its type through the incremental store and the object graph.
@Suite("Store failures keep their cause")
struct StoreFailureCauseTests {
    @Test func aDatastoreErrorSurfacesTypedThroughTheCoordinator() throws {
        let stack = try DocumentStack()
        var caught: (any Error)?
        // Transactions do not nest: the store refuses the inner one.
        try stack.coordinator.performAtomically {
            do { try stack.coordinator.performAtomically {} } catch { caught = error }
        }
        let error = try #require(caught)
        guard let graphError = error as? ObjectGraphError, case .store(.storeFailure(let cause)) = graphError else {
            Issue.record("expected ObjectGraphError.store(.storeFailure), got \(error)")
            return
        }
        let datastore = try #require(cause as? DocumentStoreError)
        guard case .storage(let text) = datastore else {
            Issue.record("expected a storage failure, got \(datastore)")
            return
        }
        #expect(text.contains("a transaction is already open"))
        #expect(graphError.description == "datastore: \(datastore.description)")
    }

    @Test func openingAFileThatIsNotAStoreKeepsTheDatastoreError() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("not-a-store.sqlite")
        try Data(repeating: UInt8(ascii: "x"), count: 4096).write(to: URL(fileURLWithPath: path))
        do {
            _ = try DocumentIncrementalStore(path: path)
            Issue.record("a file that is not SQLite opened")
        } catch let error as DocumentIncrementalStoreError {
            // SQLITE_NOTADB, with SQLite's code kept.
            guard case .datastore(let cause) = error, case .sqlite(let failure) = cause else {
                Issue.record("expected .datastore(.sqlite), got \(error)")
                return
            }
            #expect(failure.resultCode == 26)
            #expect(error.description == "datastore failure: \(cause.description)")
        }
    }

    @Test func messagesStillNameTheCauseAndTheFix() {
        let cause = DocumentStoreError.notFound(id: "CDTIS-Recipe-1")
        #expect(IncrementalStoreError.storeFailure(cause).description == "datastore: " + cause.description)
        #expect(IncrementalStoreError.notLoaded.description == "the store is not loaded; add it to a coordinator first")
        #expect(ObjectGraphError.store(.unknownEntity("Dish")).description == "unknown entity Dish")
    }
}
