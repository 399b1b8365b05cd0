public import DocumentStore

/// Why a container could not be opened or synced; each message names the cause and the fix.
public enum ObjectContainerError: Error, Sendable, CustomStringConvertible {
    /// The compiled model definition does not make a model.
    case invalidModel(path: String, cause: any Error)
    /// The store file could not be opened or created, or was written with another model.
    case cannotOpen(path: String, cause: any Error)
    /// Another sync of the same store file is running (in this or another process).
    case syncAlreadyRunning(SyncLockError)
    /// The remote is not usable (a URL that names no database, a store file that cannot be
    /// opened); the description is the remote with its password masked.
    case unusableRemote(String, cause: any Error)
    /// One step of a sync failed; the steps after it did not run. Nothing is lost:
    /// replication checkpoints only what was written, and the next sync resumes there.
    case syncStepFailed(step: String, cause: any Error)

    /// A message naming the cause and the fix.
    public var description: String {
        switch self {
        case .invalidModel(let path, let cause):
            return "the model \(path) cannot be built: \(cause); fix the model and build again"
        case .cannotOpen(let path, let cause):
            return "cannot open the store \(path): \(cause)"
        case .syncAlreadyRunning(let error):
            return "\(error)"
        case .unusableRemote(let remote, let cause):
            return "the remote \(remote) is not usable: \(cause); check the URL"
        case .syncStepFailed(let step, let cause):
            return "the sync's \(step) failed: \(cause); run the sync again to resume"
        }
    }
}
