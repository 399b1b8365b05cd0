import CouchProtocol
import DocumentStore

/// A remote database's description, from the `GET /db` message.
extension DatabaseInfo {
    /// What `reply` says: `update_seq` (opaque), `doc_count`, and `instance_start_time` as the
    /// database's identity unless it is empty or `"0"`.
    init(_ reply: DatabaseInfoReply) {
        // CouchDB 3 reports the database's creation time here; "0" (and older servers'
        // process start times are no better) says nothing about the database's identity.
        let instance = reply.instanceStartTime.flatMap { $0.isEmpty || $0 == "0" ? nil : $0 }
        self.init(updateSequence: ReplicationSequence(reply.updateSequence), documentCount: reply.documentCount,
                  instance: instance)
    }
}
