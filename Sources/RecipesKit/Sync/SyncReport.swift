/// What one sync did, for the summary line, `--json`, and `recipes status` (it is kept in
/// the store's local document `_local/recipes-sync`). JSON: `{"result", "direction",
/// "remote", "startedAt", "finishedAt", "pulled", "pushed", "conflictsResolved",
/// "refused", "error", "steps": [{"name", "state", "error"}]}`.
public struct SyncReport: Sendable, Equatable, Codable {
    /// How a step ended.
    public struct Step: Sendable, Equatable, Codable {
        /// `pull`, `resolve`, `push` or `refresh`.
        public var name: String
        /// `succeeded`, `failed`, `cancelled` or `pending`.
        public var state: String
        /// Why it failed or was cancelled.
        public var error: String?

        /// Makes a step record.
        public init(name: String, state: String, error: String?) {
            self.name = name
            self.state = state
            self.error = error
        }

        private enum CodingKeys: String, CodingKey { case name, state, error }

        /// Encodes every key, `error` as `null` when absent.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(state, forKey: .state)
            try c.encode(error, forKey: .error)
        }
    }

    /// `succeeded`, `failed` or `cancelled`.
    public var result: String
    /// Which halves ran.
    public var direction: SyncDirection
    /// The remote, password masked.
    public var remote: String
    /// Start time (ISO 8601, UTC).
    public var startedAt: String
    /// End time (ISO 8601, UTC).
    public var finishedAt: String
    /// Revisions written to this store by the pull.
    public var pulled: Int
    /// Revisions written to the remote by the push.
    public var pushed: Int
    /// Documents whose conflicting revisions were merged into one.
    public var conflictsResolved: Int
    /// Revisions one side refused (reported, not fatal).
    public var refused: Int
    /// The first failure's message, when the sync failed.
    public var error: String?
    /// Every step in order.
    public var steps: [Step]

    /// Whether the sync succeeded.
    public var succeeded: Bool { result == "succeeded" }

    /// Makes a report.
    public init(result: String, direction: SyncDirection, remote: String, startedAt: String, finishedAt: String,
                pulled: Int, pushed: Int, conflictsResolved: Int, refused: Int, error: String?, steps: [Step]) {
        self.result = result
        self.direction = direction
        self.remote = remote
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.pulled = pulled
        self.pushed = pushed
        self.conflictsResolved = conflictsResolved
        self.refused = refused
        self.error = error
        self.steps = steps
    }

    private enum CodingKeys: String, CodingKey {
        case result, direction, remote, startedAt, finishedAt, pulled, pushed, conflictsResolved, refused, error, steps
    }

    /// Encodes every key, `error` as `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(result, forKey: .result)
        try c.encode(direction, forKey: .direction)
        try c.encode(remote, forKey: .remote)
        try c.encode(startedAt, forKey: .startedAt)
        try c.encode(finishedAt, forKey: .finishedAt)
        try c.encode(pulled, forKey: .pulled)
        try c.encode(pushed, forKey: .pushed)
        try c.encode(conflictsResolved, forKey: .conflictsResolved)
        try c.encode(refused, forKey: .refused)
        try c.encode(error, forKey: .error)
        try c.encode(steps, forKey: .steps)
    }

    /// One line for people: `sync succeeded: pulled 3, pushed 1, conflicts resolved 0`.
    public var summaryLine: String {
        var line = "sync \(result): pulled \(pulled), pushed \(pushed), conflicts resolved \(conflictsResolved)"
        if refused > 0 { line += ", refused \(refused)" }
        if let error { line += " — \(error)" }
        return line
    }
}
