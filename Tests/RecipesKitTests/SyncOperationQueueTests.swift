import Foundation
import Testing
@testable import RecipesKit

@Suite("Sync operation queue")
struct SyncOperationQueueTests {
    private final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        func add(_ entry: String) { lock.withLock { entries.append(entry) } }
        var all: [String] { lock.withLock { entries } }
    }

    struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }

    @Test("operations run in dependency order, one at a time")
    func order() async throws {
        let log = Log()
        let pull = SyncOperation("pull") { _ in log.add("pull") }
        let resolve = SyncOperation("resolve", dependsOn: [pull]) { _ in log.add("resolve") }
        let push = SyncOperation("push", dependsOn: [resolve]) { _ in log.add("push") }
        let refresh = SyncOperation("refresh", dependsOn: [push]) { _ in log.add("refresh") }
        let queue = SyncOperationQueue()
        for operation in [refresh, push, resolve, pull] { queue.add(operation) }
        let ran = try await queue.run()
        #expect(log.all == ["pull", "resolve", "push", "refresh"])
        #expect(ran.map(\.state) == [.succeeded, .succeeded, .succeeded, .succeeded])
    }

    @Test("a failure cancels what depends on it and keeps the reason; independent work still runs")
    func failure() async throws {
        let log = Log()
        let pull = SyncOperation("pull") { _ in throw Boom() }
        let push = SyncOperation("push", dependsOn: [pull]) { _ in log.add("push") }
        let other = SyncOperation("other") { _ in log.add("other") }
        let queue = SyncOperationQueue(observer: { log.add("\($0.name):\($0.state)") })
        queue.add(pull)
        queue.add(push)
        queue.add(other)
        try await queue.run()
        #expect(pull.state == .failed("boom") && pull.error is Boom)
        #expect(push.state == .cancelled("pull did not succeed"))
        #expect(other.state == .succeeded)
        #expect(!log.all.contains("push") && log.all.contains("other"))
    }

    @Test("cancel stops the running operation and cancels the rest")
    func cancellation() async throws {
        let started = Log()
        let slow = SyncOperation("pull") { _ in
            started.add("pull")
            try await Task.sleep(for: .seconds(300))
        }
        let push = SyncOperation("push", dependsOn: [slow]) { _ in started.add("push") }
        let queue = SyncOperationQueue()
        queue.add(slow)
        queue.add(push)
        let task = Task { try await queue.run() }
        while started.all.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        let clock = ContinuousClock()
        let begin = clock.now
        queue.cancel()
        _ = try await task.value
        #expect(clock.now - begin < .seconds(60))
        #expect(slow.state == .cancelled("the sync was cancelled"))
        if case .cancelled = push.state {} else { Issue.record("push should be cancelled, is \(push.state)") }
        #expect(started.all == ["pull"])
    }

    @Test("an operation that ignores cancellation is abandoned after the grace period")
    func stubbornOperation() async throws {
        let started = Log()
        let stubborn = SyncOperation("pull") { _ in
            started.add("pull")
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + 300) { continuation.resume() }
            }
        }
        let queue = SyncOperationQueue(gracePeriod: .milliseconds(200))
        queue.add(stubborn)
        let task = Task { try await queue.run() }
        while started.all.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        let clock = ContinuousClock()
        let begin = clock.now
        task.cancel()
        _ = try await task.value
        #expect(clock.now - begin < .seconds(60))
        #expect(stubborn.state == .cancelled("the sync was cancelled"))
    }

    @Test("dependencies that cannot be ordered are refused before anything runs")
    func cycle() async throws {
        let a = SyncOperation("a") { _ in }
        let b = SyncOperation("b", dependsOn: [a]) { _ in }
        let queue = SyncOperationQueue()
        queue.add(b)
        await #expect(throws: SyncQueueError.self) { try await queue.run() }
        #expect(b.state == .pending)
    }
}
