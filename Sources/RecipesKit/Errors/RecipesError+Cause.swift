import DocumentIncrementalStore
import DocumentStore
import ObjectGraph

extension RecipesError {
    /// The error that started this one, dug out of every layer it passed through: the cause
    /// of a ``store(_:cause:)``, then through `ObjectGraphError.store(_:)`,
    /// `IncrementalStoreError.storeFailure(_:)`,
    /// `DocumentIncrementalStoreError.datastore(_:)` and the replication layer's
    /// `ReplicationError.store(_:cause:)`.
    /// So a datastore failure met by any RecipesKit call can be told apart by type
    /// (`error.rootCause as? DocumentStoreError`) whatever layers it crossed. `nil` when the
    /// error has no cause underneath.
    public var rootCause: (any Error)? {
        guard case .store(_, var error?) = self else { return nil }
        while let inner = Self.cause(under: error) { error = inner }
        return error
    }

    /// Whether the save failed because another process (a live sync, another command)
    /// changed the same objects since they were read: nothing was written, and reading them
    /// again and making the same change is expected to work.
    public var isConcurrentChange: Bool {
        switch rootCause {
        case ObjectGraphError.mergeConflicts?, IncrementalStoreError.conflicts?: true
        default: false
        }
    }

    /// Whether the store was locked by another process's write (a running import or sync)
    /// for longer than this one waits: nothing was written, and the same command is expected
    /// to work once that write has finished.
    public var isStoreLocked: Bool {
        if case DocumentStoreError.sqlite(let failure)? = rootCause { return failure.isTransient }
        return false
    }

    /// The error one layer under `error`, if `error` wraps one.
    package static func cause(under error: any Error) -> (any Error)? {
        switch error {
        case let error as RecipesError:
            if case .store(_, let cause?) = error { return cause }
        case ObjectGraphError.store(let storeError):
            return storeError
        case IncrementalStoreError.storeFailure(let cause):
            return cause
        case DocumentIncrementalStoreError.datastore(let cause):
            return cause
        case let error as any ReplicationLayerError:
            return error.underlyingCause
        default:
            break
        }
        return nil
    }
}
