/// Which side wins, property by property, when a pull leaves a document with conflicting
/// revisions.
public enum ConflictPreference: String, Sendable, Equatable, Codable, CaseIterable {
    /// The stored winner (CouchDB's deterministic choice, usually the remote's edit) wins for
    /// every property it changed; the other revision's other changes are kept. The default,
    /// as in the original app; every replica resolving alone reaches the same result.
    case remote
    /// The revision written on this machine wins for every property it changed.
    case local
}
