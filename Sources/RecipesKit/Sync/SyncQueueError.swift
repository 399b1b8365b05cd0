/// Why a sync queue could not run at all.
public enum SyncQueueError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The operations' dependencies cannot be ordered.
    case dependencyCycle(String)

    /// The problem, one line.
    public var description: String {
        switch self {
        case .dependencyCycle(let detail): "cannot order the sync steps: \(detail)"
        }
    }
}
