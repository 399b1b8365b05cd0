/// Where a server-side replication job stands, with the names CouchDB 3's scheduler uses in
/// `_scheduler/jobs` and `_scheduler/docs`.
enum ReplicationJobState: String, Sendable {
    /// Known but not started yet.
    case pending
    /// Copying, or (continuous) following the source.
    case running
    /// The last attempt failed; the job tries again after a delay that doubles each time.
    case crashing
    /// A one-shot job that reached the end of the source.
    case completed
    /// Stopped for good: the definition or the credentials cannot work as they are.
    case failed

    /// Whether the job is over (it stays listed in `_scheduler/docs`, not in `_scheduler/jobs`).
    var isFinal: Bool { self == .completed || self == .failed }
}
