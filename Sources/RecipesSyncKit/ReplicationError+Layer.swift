package import RecipesKit
import Replication

/// The replication engine's errors, told apart for a sync's report and looked underneath
/// for the store failure a ``ReplicationError/store(_:cause:)`` carries.
extension ReplicationError: ReplicationLayerError {
    package var syncFailureKind: (kind: SyncFailure.Kind, isTransient: Bool)? {
        switch self {
        case .unauthorized: (.unauthorized, false)
        case .forbidden: (.forbidden, false)
        case .databaseNotFound: (.remoteDatabaseMissing, false)
        case .unreachable: (.unreachable, true)
        case .timedOut: (.timedOut, true)
        case .untrustedCertificate: (.remoteError, false)
        case .malformedReply: (.remoteError, false)
        case .httpStatus(_, let status, _, _): (.remoteError, status >= 500)
        case .invalidURL, .invalidSelector: (.invalidRequest, false)
        case .cancelled: (.cancelled, true)
        case .store(_, nil): (.localStore, false)
        case .store: nil
        }
    }

    package var underlyingCause: (any Error)? {
        if case .store(_, let cause?) = self { return cause }
        return nil
    }
}
