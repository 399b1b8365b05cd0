/// What a live sync (``Sync/live(options:replication:)``, `RecipesSync.live`) reports as it runs: one
/// event per change of state, never a repeat of the state it is in.
///
/// A run goes `connected` → (`pulled` / `pushed`)… → `caughtUp`, then again `pulled` /
/// `pushed` → `caughtUp` each time either side changes; `offline` whenever the remote
/// cannot be reached (then `connected` once it can); and ends with exactly one `stopped`.
public enum LiveSyncEvent: Sendable, Equatable, CustomStringConvertible {
    /// The first exchange with the remote succeeded, at the start or after being offline.
    case connected
    /// A pull wrote this many revisions from the remote into the store (never 0).
    case pulled(Int)
    /// A push wrote this many revisions from the store to the remote (never 0).
    case pushed(Int)
    /// Both sides held every revision the other had when last looked at; the live sync now
    /// waits for a change on either side.
    case caughtUp
    /// The remote could not be reached (connection refused or broken, timeout, 5xx, …),
    /// after the HTTP client's own retries. The live sync tries again after `retryIn`
    /// (doubling from ``LiveSyncOptions/initialBackoff`` up to
    /// ``LiveSyncOptions/maxBackoff``, back to the start after a success), resuming from
    /// the checkpoints.
    case offline(ReplicationError, retryIn: Duration)
    /// The live sync ended; no event follows.
    case stopped(LiveSyncStop)

    /// One line for people: `connected`, `pulled 3`, `offline: … (retrying in 0.5 s)`, ….
    public var description: String {
        switch self {
        case .connected: return "connected"
        case .pulled(let count): return "pulled \(count)"
        case .pushed(let count): return "pushed \(count)"
        case .caughtUp: return "caught up"
        case .offline(let error, let delay): return "offline: \(error) (retrying in \(Self.seconds(delay)) s)"
        case .stopped(.cancelled): return "stopped"
        case .stopped(.failed(let error)): return "stopped: \(error)"
        }
    }

    /// A duration in seconds with at most one decimal (`0.5`, `30`).
    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

/// Why a live sync stopped.
public enum LiveSyncStop: Sendable, Equatable {
    /// The task iterating the events was cancelled (or stopped iterating); whatever was
    /// checkpointed stays, and the next sync resumes there.
    case cancelled
    /// An error retrying cannot fix: the remote refused the credentials
    /// (`ReplicationError.unauthorized`) or access (`.forbidden`), the URL is unusable
    /// (`.invalidURL`), or the local store failed (`.store`).
    case failed(ReplicationError)
}
