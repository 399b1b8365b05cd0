public import Foundation

/// What one sync did, for the summary line, `--json`, and `recipes status` (it is kept in
/// the store's local document `_local/recipes-sync`). JSON: `{"result", "direction",
/// "remote", "startedAt", "finishedAt", "pulled", "pushed", "conflictsResolved",
/// "refused", "refusedDocuments": [{"id", "direction", "error", "reason"}], "error",
/// "errorKind", "retryable", "steps": [{"name", "state", "error", "errorKind", "retryable"}]}`;
/// times are ISO 8601 in UTC, `error` is the failure's sentence, `errorKind` a
/// ``SyncFailure/Kind`` case name and `retryable` whether running the sync again as it is
/// can succeed (the three are absent when there was no failure).
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
        public var error: SyncFailure?

        /// Makes a step record.
        public init(name: String, state: State, error: SyncFailure?) {
            self.name = name
            self.state = state
            self.error = error
        }

        private enum CodingKeys: String, CodingKey { case name, state, error, errorKind, retryable }

        /// Reads a step; one saved before failures had kinds reads as ``SyncFailure/Kind/other``.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            state = try container.decode(State.self, forKey: .state)
            error = try SyncReport.decodeFailure(container, message: .error, kind: .errorKind, retryable: .retryable)
        }

        /// Writes the step, its failure as flat `error`, `errorKind` and `retryable` members.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(state, forKey: .state)
            try SyncReport.encodeFailure(error, &container, message: .error, kind: .errorKind, retryable: .retryable)
        }
    }

    /// How the sync ended.
    public var result: Outcome
    /// Which halves ran.
    public var direction: SyncDirection
    /// The remote, password masked.
    public var remote: String
    /// When the sync started, to the second.
    public var startedAt: Date { didSet { startedAt = Self.wholeSecond(startedAt) } }
    /// When the sync ended, to the second.
    public var finishedAt: Date { didSet { finishedAt = Self.wholeSecond(finishedAt) } }
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
    /// Why the sync failed (the first failed step, named in the message) or was cancelled.
    public var error: SyncFailure?
    /// Every step in order.
    public var steps: [Step]

    /// Whether the sync succeeded.
    public var succeeded: Bool { result == .succeeded }

    /// Makes a report.
    public init(result: Outcome, direction: SyncDirection, remote: String, startedAt: Date, finishedAt: Date,
                pulled: Int, pushed: Int, conflictsResolved: Int, refusedDocuments: [RefusedDocument], error: SyncFailure?,
                steps: [Step]) {
        self.result = result
        self.direction = direction
        self.remote = remote
        self.startedAt = Self.wholeSecond(startedAt)
        self.finishedAt = Self.wholeSecond(finishedAt)
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
        case error, errorKind, retryable, steps
    }

    /// Reads a report; one saved before refused documents were listed has none listed, and
    /// one saved before failures had kinds reads as ``SyncFailure/Kind/other``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        result = try container.decode(Outcome.self, forKey: .result)
        direction = try container.decode(SyncDirection.self, forKey: .direction)
        remote = try container.decode(String.self, forKey: .remote)
        startedAt = try Self.decodeDate(container, .startedAt)
        finishedAt = try Self.decodeDate(container, .finishedAt)
        pulled = try container.decode(Int.self, forKey: .pulled)
        pushed = try container.decode(Int.self, forKey: .pushed)
        conflictsResolved = try container.decode(Int.self, forKey: .conflictsResolved)
        refused = try container.decode(Int.self, forKey: .refused)
        refusedDocuments = try container.decodeIfPresent([RefusedDocument].self, forKey: .refusedDocuments) ?? []
        error = try Self.decodeFailure(container, message: .error, kind: .errorKind, retryable: .retryable)
        steps = try container.decode([Step].self, forKey: .steps)
    }

    /// Writes the report as its JSON shape above.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(result, forKey: .result)
        try container.encode(direction, forKey: .direction)
        try container.encode(remote, forKey: .remote)
        try container.encode(Self.timestamp(startedAt), forKey: .startedAt)
        try container.encode(Self.timestamp(finishedAt), forKey: .finishedAt)
        try container.encode(pulled, forKey: .pulled)
        try container.encode(pushed, forKey: .pushed)
        try container.encode(conflictsResolved, forKey: .conflictsResolved)
        try container.encode(refused, forKey: .refused)
        try container.encode(refusedDocuments, forKey: .refusedDocuments)
        try Self.encodeFailure(error, &container, message: .error, kind: .errorKind, retryable: .retryable)
        try container.encode(steps, forKey: .steps)
    }

    /// `date` to the second, as the report is written and kept, so a report read back
    /// equals the one made.
    private static func wholeSecond(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// A time as the report writes it: ISO 8601 in UTC, to the second.
    public static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    private static func decodeDate<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Date {
        let text = try container.decode(String.self, forKey: key)
        guard let date = ISO8601DateFormatter().date(from: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not an ISO 8601 time: \(text)")
        }
        return date
    }

    fileprivate static func decodeFailure<Key: CodingKey>(
        _ container: KeyedDecodingContainer<Key>, message: Key, kind: Key, retryable: Key
    ) throws -> SyncFailure? {
        guard let text = try container.decodeIfPresent(String.self, forKey: message) else { return nil }
        return SyncFailure(kind: try container.decodeIfPresent(SyncFailure.Kind.self, forKey: kind) ?? .other,
                           message: text,
                           isTransient: try container.decodeIfPresent(Bool.self, forKey: retryable) ?? false)
    }

    fileprivate static func encodeFailure<Key: CodingKey>(
        _ failure: SyncFailure?, _ container: inout KeyedEncodingContainer<Key>, message: Key, kind: Key, retryable: Key
    ) throws {
        // `encodeIfPresent`, so `--json` writes the three as null when there is no failure.
        try container.encodeIfPresent(failure?.message, forKey: message)
        try container.encodeIfPresent(failure?.kind, forKey: kind)
        try container.encodeIfPresent(failure?.isTransient, forKey: retryable)
    }

    /// One line for people: `sync succeeded: pulled 3, pushed 1, conflicts resolved 0`.
    public var summaryLine: String {
        var line = "sync \(result.rawValue): pulled \(pulled), pushed \(pushed), conflicts resolved \(conflictsResolved)"
        if refused > 0 { line += ", refused \(refused) (pending; every sync offers them again)" }
        if let error { line += " — \(error)" }
        return line
    }
}
