/// Which halves of a sync run.
public enum SyncDirection: String, Sendable, Equatable, Codable {
    /// Pull, resolve conflicts, push, refresh.
    case both
    /// Pull, resolve conflicts, refresh (`--pull-only`).
    case pullOnly = "pull-only"
    /// Push only (`--push-only`).
    case pushOnly = "push-only"
}
