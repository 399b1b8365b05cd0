import CouchProtocol
import CouchServer
import DocumentStore
import Foundation
import Testing

/// How datastore failures reach the wire: a store that stays locked is CouchDB's retryable
/// 503, a broken one a 500 that names SQLite's failure.
@Suite struct StoreErrorMappingTests {
    @Test func aBusyStoreIsA503AndAClosedOneA500() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("busy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        var options = DocumentStore.Options()
        options.busyTimeout = 0.05
        let store = try DocumentStore(path: path, options: options)
        let holder = try DocumentStore(path: path, options: options)
        var busy: DocumentStoreError?
        try holder.inTransaction { _ in
            do { _ = try store.create(id: "a", body: [:]) } catch let error as DocumentStoreError { busy = error }
        }
        let mapped = CouchError(try #require(busy))
        #expect(mapped.status == 503)
        #expect(mapped.error == "service_unavailable")

        try store.close()
        var closed: DocumentStoreError?
        do { _ = try store.get(id: "a") } catch let error as DocumentStoreError { closed = error }
        let broken = CouchError(try #require(closed))
        #expect(broken.status == 500)
        #expect(broken.reason.contains("SQLite error 21"))
        try holder.close()
    }
}
