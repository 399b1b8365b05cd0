public import DocumentFormat

/// A document a sync could not copy: the remote refused it (a push; for example CouchDB's
/// `413 too_large` past its `max_document_size`), or the store refused or the remote could
/// not supply it (a pull). It stays pending: every later sync offers it again and reports it
/// until it is copied, or it is changed and the new revision copied, or deleted.
///
/// The replication's `DocumentFailure` with the direction the document was to go; saved
/// and written as `--json` as `{"id", "direction", "error", "reason"}`, without the revision.
public struct RefusedDocument: Sendable, Equatable, Codable {
    /// Which way the document was to go; JSON writes the case name.
    public enum Direction: String, Sendable, Equatable, Codable {
        /// From this store to the remote.
        case push
        /// From the remote into this store.
        case pull
    }

    /// The document, and the error and reason the refusing side gave (`too_large`,
    /// `forbidden`, …).
    public var failure: DocumentFailure
    /// Which way it was to go.
    public var direction: Direction

    /// Records the refusal of a document that was to go `direction`.
    public init(_ failure: DocumentFailure, direction: Direction) {
        self.failure = failure
        self.direction = direction
    }

    /// `ID (push): error, reason`, one line for people.
    public var line: String {
        "\(failure.id) (\(direction.rawValue)): \(failure.error)\(failure.reason.isEmpty ? "" : ", \(failure.reason)")"
    }

    private enum CodingKeys: String, CodingKey { case id, direction, error, reason }

    /// Reads a record as ``encode(to:)`` writes it; its revision is not known.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        failure = DocumentFailure(id: try container.decode(String.self, forKey: .id), rev: nil,
                                  error: try container.decode(String.self, forKey: .error),
                                  reason: try container.decode(String.self, forKey: .reason))
        direction = try container.decode(Direction.self, forKey: .direction)
    }

    /// Writes `{"id", "direction", "error", "reason"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(failure.id, forKey: .id)
        try container.encode(direction, forKey: .direction)
        try container.encode(failure.error, forKey: .error)
        try container.encode(failure.reason, forKey: .reason)
    }
}
