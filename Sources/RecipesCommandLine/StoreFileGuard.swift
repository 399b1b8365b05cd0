package import RecipesKit

/// Keeps a long-running command (`list --watch`, `sync --live`) tied to the store file it
/// opened: its work is cancelled when the file is deleted, replaced or truncated
/// (``StoreFileIdentity``), and the command then fails naming what happened, rather than
/// going on with a file no other command sees.
package struct StoreFileGuard {
    /// How often the store's path is checked against the file opened.
    package static let checkInterval: Duration = .milliseconds(250)

    package let store: RecipesStore
    private let identity: StoreFileIdentity

    /// Takes the identity of `store`'s file now; make it right after opening the store.
    package init(store: RecipesStore) throws {
        self.store = store
        do { identity = try StoreFileIdentity(url: store.url) } catch { throw CommandFailure(message: error.description) }
    }

    /// Waits for `work` while watching the file, and returns how `work` ended.
    /// - Throws: ``CommandFailure`` naming the change when the file went away (then `work`
    ///   was cancelled, and the old file's write-ahead log beside the path is emptied so it
    ///   cannot be replayed onto the file now there).
    package func outcome<Success: Sendable>(of work: Task<Success, any Error>) async throws -> Result<Success, any Error> {
        let monitor = identity.guarding(work, every: Self.checkInterval)
        let outcome = await work.result
        monitor.cancel()
        // Work that failed may have failed because of the file: that is the cause to name.
        if let change = await monitor.value ?? identity.change() {
            store.releaseReplacedFile()
            throw CommandFailure(message: change.description)
        }
        return outcome
    }
}
