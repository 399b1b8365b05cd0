/// The `_`-prefixed members CouchDB keeps in a document's body: those its replicator writes
/// into a `_replicator` document (`_replication_state`, `_replication_state_time`,
/// `_replication_state_reason`, `_replication_id`, `_replication_stats`). Any document may
/// carry them, as in CouchDB; every other `_` member is refused.
public enum ReplicatorStateFields {
    /// The member names.
    public static let names: Set<String> = [
        "_replication_state", "_replication_state_time", "_replication_state_reason", "_replication_id", "_replication_stats",
    ]
}
