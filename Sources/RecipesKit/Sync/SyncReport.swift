/// What one sync did, for the summary line, `--json`, and `recipes status` (it is kept in
/// the store's local document `_local/recipes-sync`). JSON: `{"result", "direction",
/// "remote", "startedAt", "finishedAt", "pulled", "pushed", "conflictsResolved",
/// "refused", "refusedDocuments": [{"id", "direction", "error", "reason"}], "error",
/// "steps": [{"name", "state", "error"}]}`.
public struct SyncReport: Sendable, Equatable, Codable {
    /// How the whole sync ended; JSON writes the case name.
    public enum Outcome: String, Sendable, Codable {
        /// Every step that ran succeeded.
        case succeeded
        /// A step failed (``SyncReport/error`` says which and why).
        case failed
        /// The sync was cancelled (an interrupt) and stopped; the next sync resumes.
        case cancelled
    }

    /// How a step ended.
    public struct Step: Sendable, Equatable, Codable {
        /// How one step ended; JSON writes the case name.
        public enum State: String, Sendable, Codable {
            /// The step finished without error.
            case succeeded
            /// The step threw (``SyncReport/Step/error`` names the cause).
            case failed
            /// The step was stopped, or never started, because the sync was cancelled or a
            /// step it depends on did not succeed.
            case cancelled
            /// The step never ran.
            case pending
        }

        /// `pull`, `resolve`, `push` or `refresh`.
        public var name: String
        /// How it ended.
        public var state: State
        /// Why it failed or was cancelled.
        public var error: String?

        /// Makes a step record.
        public init(name: String, state: State, error: String?) {
            self.name = name
            self.state = state
            self.error = error
        }

        private enum CodingKeys: String, CodingKey { case name, state, error }
    }

    /// How the sync ended.
    public var result: Outcome
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
    /// Documents still not copied when the sync ended (`refusedDocuments.count`): refused
    /// by one side, in this sync or an earlier one and again in this one. Not fatal to the
    /// sync; `recipes sync` exits with status 3 when there are any.
    public var refused: Int
    /// The documents counted in `refused`, with the reason each was refused.
    public var refusedDocuments: [RefusedDocument]
    /// The first failure's message, when the sync failed.
    public var error: String?
    /// Every step in order.
    public var steps: [Step]

    /// Whether the sync succeeded.
    public var succeeded: Bool { result == .succeeded }

    /// Makes a report.
    public init(result: Outcome, direction: SyncDirection, remote: String, startedAt: String, finishedAt: String,
                pulled: Int, pushed: Int, conflictsResolved: Int, refusedDocuments: [RefusedDocument], error: String?,
                steps: [Step]) {
        self.result = result
        self.direction = direction
        self.remote = remote
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.pulled = pulled
        self.pushed = pushed
        self.conflictsResolved = conflictsResolved
        self.refused = refusedDocuments.count
        self.refusedDocuments = refusedDocuments
        self.error = error
        self.steps = steps
    }

    private enum CodingKeys: String, CodingKey {
        case result, direction, remote, startedAt, finishedAt, pulled, pushed, conflictsResolved, refused, refusedDocuments
        case error, steps
    }

    /// Reads a report; one saved before refused documents were listed has none listed.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        result = try container.decode(Outcome.self, forKey: .result)
        direction = try container.decode(SyncDirection.self, forKey: .direction)
        remote = try container.decode(String.self, forKey: .remote)
        startedAt = try container.decode(String.self, forKey: .startedAt)
        finishedAt = try container.decode(String.self, forKey: .finishedAt)
        pulled = try container.decode(Int.self, forKey: .pulled)
        pushed = try container.decode(Int.self, forKey: .pushed)
        conflictsResolved = try container.decode(Int.self, forKey: .conflictsResolved)
        refused = try container.decode(Int.self, forKey: .refused)
        refusedDocuments = try container.decodeIfPresent([RefusedDocument].self, forKey: .refusedDocuments) ?? []
        error = try container.decodeIfPresent(String.self, forKey: .error)
        steps = try container.decode([Step].self, forKey: .steps)
    }

    /// One line for people: `sync succeeded: pulled 3, pushed 1, conflicts resolved 0`.
    public var summaryLine: String {
        var line = "sync \(result.rawValue): pulled \(pulled), pushed \(pushed), conflicts resolved \(conflictsResolved)"
        if refused > 0 { line += ", refused \(refused) (pending; every sync offers them again)" }
        if let error { line += " — \(error)" }
        return line
    }
}
