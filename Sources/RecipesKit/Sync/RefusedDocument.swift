/// A document a sync could not copy: the remote refused it (a push; for example CouchDB's
/// `413 too_large` past its `max_document_size`), or the store refused or the remote could
/// not supply it (a pull). It stays pending: every later sync offers it again and reports it
/// until it is copied, or it is changed and the new revision copied, or deleted.
public struct RefusedDocument: Sendable, Equatable, Codable {
    /// Which way the document was to go; JSON writes the case name.
    public enum Direction: String, Sendable, Equatable, Codable {
        /// From this store to the remote.
        case push
        /// From the remote into this store.
        case pull
    }

    /// The document ID.
    public var id: String
    /// Which way it was to go.
    public var direction: Direction
    /// The error keyword the refusing side gave (`too_large`, `forbidden`, …).
    public var error: String
    /// The reason, as the refusing side gave it.
    public var reason: String

    /// Makes a record.
    public init(id: String, direction: Direction, error: String, reason: String) {
        self.id = id
        self.direction = direction
        self.error = error
        self.reason = reason
    }

    /// `ID (push): error, reason`, one line for people.
    public var line: String {
        "\(id) (\(direction.rawValue)): \(error)\(reason.isEmpty ? "" : ", \(reason)")"
    }
}
