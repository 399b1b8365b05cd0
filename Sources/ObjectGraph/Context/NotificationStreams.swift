import Foundation
import Synchronization

/// The open streams of one kind of a context's notifications (its saves, the changes it took
/// in): each iteration gets every element from when it was made, and ends when the iterating
/// task stops or the context is gone. Nothing is registered or removed by hand.
final class NotificationStreams<Element: Sendable>: Sendable {
    private let continuations = Mutex<[UUID: AsyncStream<Element>.Continuation]>([:])

    /// A new stream of the elements posted from now on.
    func stream() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream()
        let token = UUID()
        continuations.withLock { $0[token] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLock { $0.removeValue(forKey: token) }
        }
        return stream
    }

    /// Hands `element` to every open stream.
    func post(_ element: Element) {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.yield(element) }
    }

    deinit {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.finish() }
    }
}
