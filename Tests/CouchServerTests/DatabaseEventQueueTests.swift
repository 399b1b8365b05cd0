import CouchProtocol
import Testing
@testable import CouchServer

/// The pending events of `_global_changes`: coalesced, so memory follows the databases
/// touched, never the number of writes; and the integers `_db_updates` reads.
@Suite("CouchServer database event queue")
struct DatabaseEventQueueTests {
    @Test("A burst of writes holds one entry per event and database, in the order first seen; _global_changes records none")
    func coalesces() {
        let queue = DatabaseEventQueue()
        queue.record(.created, of: "a")
        for _ in 0..<100_000 {
            queue.record(.updated, of: "a")
            queue.record(.updated, of: "b")
        }
        queue.record(.updated, of: GlobalChangesService.databaseName)
        #expect(queue.count == 3)
        #expect(queue.take() == ["created:a", "updated:a", "updated:b"])
        #expect(queue.count == 0)
        queue.record(.deleted, of: "a")
        #expect(queue.take() == ["deleted:a"])
    }

    @Test("limit, timeout and heartbeat are read as CouchDB's list_to_integer reads them, beyond 64 bits too")
    func integers() throws {
        #expect(try DatabaseUpdatesRequest.nonNegativeInteger("0") == 0)
        #expect(try DatabaseUpdatesRequest.nonNegativeInteger("+7") == 7)
        #expect(try DatabaseUpdatesRequest.nonNegativeInteger("-0") == 0)
        #expect(try DatabaseUpdatesRequest.nonNegativeInteger("340282366920938463463374607431768211456") == Int(WireNumber.maximum))
        for bad in ["", "-1", "1.0", "x", "+", "1e3", " 1", "-99999999999999999999", "١"] {
            #expect(throws: CouchError.self, "\(bad)") { try DatabaseUpdatesRequest.nonNegativeInteger(bad) }
        }
    }
}
