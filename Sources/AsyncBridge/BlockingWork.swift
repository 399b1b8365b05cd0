import Dispatch

/// Runs blocking calls (SQLite through GRDB, file reads) on a dispatch queue, so they never
/// hold one of the few threads that Swift concurrency, the HTTP server and the replicator
/// share. Every async method that reads or writes a `DocumentStore` goes through it.
public enum BlockingWork {
    private static let queue = DispatchQueue(label: "recipes.blocking-work", attributes: .concurrent)

    /// Runs `work` off the cooperative pool and returns its result, or throws its error.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
