import Dispatch

/// Runs blocking datastore calls (SQLite through GRDB) on a dispatch queue, so they never hold
/// one of the few threads Swift concurrency and the HTTP server share.
enum StoreWork {
    private static let queue = DispatchQueue(label: "CouchServer.store", attributes: .concurrent)

    /// Runs `work` off the cooperative pool and returns its result.
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
