import DocumentStore
public import DocumentFormat

/// A document revision the target refused while the replication as a whole went on (for
/// example a validation function answering `forbidden`).
public struct DocumentFailure: Sendable, Hashable, CustomStringConvertible {
    /// The document ID.
    public var id: String
    /// The revision that was refused, when known.
    public var rev: RevisionID?
    /// The error keyword (`forbidden`, `unauthorized`, `too_large`, `missing`, …).
    public var error: String
    /// The human-readable reason the peer gave.
    public var reason: String

    /// Makes a failure record.
    public init(id: String, rev: RevisionID?, error: String, reason: String) {
        self.id = id
        self.rev = rev
        self.error = error
        self.reason = reason
    }

    /// `id@rev: error (reason)`.
    public var description: String {
        "\(id)@\(rev?.description ?? "?"): \(error) (\(reason))"
    }
}
