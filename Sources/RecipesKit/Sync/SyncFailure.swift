import DocumentStore

/// Why a sync, or one of its steps, did not succeed: a ``Kind`` a program can switch on (a
/// refused password is not the same as being offline) and the sentence a person reads.
/// Kept in the store's sync record with the report, so it is plain data.
public struct SyncFailure: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// What kind of failure it was; JSON writes the case name.
    public enum Kind: String, Sendable, Codable {
        /// The remote refused the credentials (HTTP 401): fix the user name or password.
        case unauthorized
        /// The credentials are valid but lack access to the database (HTTP 403).
        case forbidden
        /// The remote database does not exist.
        case remoteDatabaseMissing
        /// The remote could not be reached or the connection broke off: offline, or the
        /// server is down; a later sync can succeed unchanged.
        case unreachable
        /// The remote did not answer in time.
        case timedOut
        /// The remote answered with an error or a reply that is not CouchDB's.
        case remoteError
        /// The remote URL or the replication's options are not usable.
        case invalidRequest
        /// The local store failed (see ``isTransient`` for a busy one).
        case localStore
        /// The sync was cancelled, or a step did not run because an earlier one failed.
        case cancelled
        /// Anything else.
        case other
    }

    /// What kind of failure it was.
    public var kind: Kind
    /// One line naming the cause and the fix.
    public var message: String
    /// Whether the same sync can succeed when simply run again (the remote was unreachable,
    /// timed out, answered 5xx, or the local store was busy).
    public var isTransient: Bool

    /// Makes a failure record.
    public init(kind: Kind, message: String, isTransient: Bool = false) {
        self.kind = kind
        self.message = message
        self.isTransient = isTransient
    }

    /// Classifies `error` by the cause underneath it (through every layer a RecipesKit error
    /// wraps), keeping its own message.
    public init(_ error: any Error, message: String? = nil) {
        let message = message ?? "\(error)"
        var layer: any Error = error
        while true {
            if let (kind, transient) = Self.classify(layer) {
                self.init(kind: kind, message: message, isTransient: transient)
                return
            }
            guard let inner = RecipesError.cause(under: layer) else { break }
            layer = inner
        }
        self.init(kind: .other, message: message)
    }

    /// The kind of `error` itself, when this layer tells it.
    private static func classify(_ error: any Error) -> (Kind, Bool)? {
        switch error {
        case let error as any ReplicationLayerError:
            return error.syncFailureKind
        case let error as DocumentStoreError:
            return (.localStore, error.isTransient)
        case is CancellationError:
            return (.cancelled, true)
        default:
            return nil
        }
    }

    /// The message.
    public var description: String { message }

    private enum CodingKeys: String, CodingKey { case kind, message, isTransient }
}
