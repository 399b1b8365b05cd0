import Foundation
import ObjectGraph
import ServiceLifecycle
import Synchronization

/// Tells the open pages that the book changed: a save through the web app, a `recipes add`
/// in a terminal, a sync. One task looks at the store's change token (one indexed read) at
/// each interval; every page's event stream
/// (``subscribe()``) gets the new version number.
final class ChangeFeed: Service {
    private let book: WebBook
    private let interval: Duration
    private let state = Mutex<State>(State())

    private struct State {
        var version = 0
        var subscribers: [UUID: AsyncStream<Int>.Continuation] = [:]
        /// The store's change token when the version last moved (or the feed started).
        var token: StoreChangeToken?
    }

    /// Watches `book`'s store every `interval`.
    init(book: WebBook, interval: Duration) {
        self.book = book
        self.interval = interval
    }

    /// Intervals between two heartbeats (30 s at the default 200 ms).
    static let heartbeatTicks = 150

    /// Sends every stream the current version.
    private func heartbeat() {
        let (version, subscribers) = state.withLock { ($0.version, Array($0.subscribers.values)) }
        for subscriber in subscribers { subscriber.yield(version) }
    }

    /// How many pages listen now.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// A stream of version numbers: the current one first, then one after each change.
    func subscribe() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        let version = state.withLock { state -> Int in
            state.subscribers[id] = continuation
            return state.version
        }
        continuation.yield(version)
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Watches until the server shuts down, then ends every stream (so the pages' open
    /// requests end and the shutdown does not wait for them).
    func run() async throws {
        await cancelWhenGracefulShutdown { await self.watch() }
    }

    /// Looks at the store's change token now and, if it moved, gives every stream the next
    /// version; whether it moved. The poll runs it at each interval, and the web app after
    /// each of its own writes, before it answers (`WebRoutes.write(_:)`).
    @discardableResult
    func check() async -> Bool {
        guard let token = try? await book.caughtUpToken() else { return false }
        let moved = state.withLock { state -> (Int, [AsyncStream<Int>.Continuation])? in
            guard token != state.token else { return nil }
            state.token = token
            state.version += 1
            return (state.version, Array(state.subscribers.values))
        }
        guard let (version, subscribers) = moved else { return false }
        for subscriber in subscribers { subscriber.yield(version) }
        return true
    }

    /// Watches until the task is cancelled, then ends every stream.
    private func watch() async {
        defer {
            let subscribers = state.withLock { state in
                defer { state.subscribers = [:] }
                return Array(state.subscribers.values)
            }
            for subscriber in subscribers { subscriber.finish() }
        }
        let start = try? await book.caughtUpToken()
        state.withLock { $0.token = start }
        var ticks = 0
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { break }
            ticks += 1
            // Now and then the current version again, so a connection that died quietly (a
            // phone going to sleep) is noticed and closed.
            if await !check(), ticks % Self.heartbeatTicks == 0 { heartbeat() }
        }
    }
}
