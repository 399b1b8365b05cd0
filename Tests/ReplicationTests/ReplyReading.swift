import CouchProtocol
import DocumentStore
@testable import Replication
import DocumentFormat

// The client's two steps in one, as `CouchDatabase` takes them: the CouchProtocol message
// reads a reply's JSON, then becomes the Replication module's own type.

extension ChangesPage {
    /// A `_changes` reply read as the client reads it.
    init(json: JSONValue) throws {
        self.init(try ChangesResponse(json: json))
    }
}

extension DatabaseInfo {
    /// A `GET /db` reply read as the client reads it.
    init(json: JSONValue) throws {
        self.init(try DatabaseInfoReply(json: json))
    }
}

extension FetchResult {
    /// A JSON `_bulk_get` reply read as the client reads it.
    init(bulkGet json: JSONValue) throws {
        try self.init(BulkGetMessage.Response(json: json))
    }

    /// A JSON `open_revs` reply read as the client reads it.
    init(openRevs json: JSONValue, documentID: String) throws {
        try self.init(OpenRevsReply(json: json, documentID: documentID), documentID: documentID)
    }
}
