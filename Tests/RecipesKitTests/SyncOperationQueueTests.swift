import Foundation
import Synchronization
import Testing
@testable import RecipesKit
import TestSupport

@Suite("Sync operation queue")
struct SyncOperationQueueTests {
    private final class Log: Sendable {
        private let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    /// Holds an operation until the test opens it, and tells the test once it holds one.
    private final class Gate: Sendable {
        private let waiting = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let holding = Signal()
        func hold(_ continuation: CheckedContinuation<Void, Never>) {
            waiting.withLock { $0 = continuation }
            holding.fire()
        }
        func open() { waiting.withLock { $0 }?.resume() }
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
        let running = Signal()
        let slow = SyncOperation("pull") { _ in
            started.add("pull")
            running.fire()
            // A slow operation: it runs until the queue cancels it.
            try await simulatedDelay(.seconds(300))
        }
        let push = SyncOperation("push", dependsOn: [slow]) { _ in started.add("push") }
        let queue = SyncOperationQueue()
        queue.add(slow)
        queue.add(push)
        let task = Task { try await queue.run() }
        // However long a loaded machine takes to start it (a hang guard, not a deadline).
        try await withTimeout(600) { await running.wait() }
        let clock = ContinuousClock()
        let begin = clock.now
        queue.cancel()
        _ = try await task.value
        #expect(clock.now - begin < .seconds(60))
        #expect(slow.state == .cancelled("the sync was cancelled"))
        if case .cancelled = push.state {} else { Issue.record("push should be cancelled, is \(push.state)") }
        #expect(started.all == ["pull"])
    }

    @Test("an operation that ignores cancellation is waited for until it really stops")
    func stubbornOperation() async throws {
        let log = Log()
        let release = Gate()
        let stubborn = SyncOperation("push") { _ in
            log.add("push started")
            // Ignores cancellation: keeps "writing" until the test lets it go.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                release.hold(continuation)
            }
            log.add(Task.isCancelled ? "push stopped, cancelled" : "push stopped")
        }
        let refresh = SyncOperation("refresh", dependsOn: [stubborn]) { _ in log.add("refresh") }
        let queue = SyncOperationQueue()
        queue.add(stubborn)
        queue.add(refresh)
        let task = Task {
            let ran = try await queue.run()
            log.add("queue returned")
            return ran
        }
        try await withTimeout(600) { await release.holding.wait() }
        task.cancel()
        // Still running: the queue has not returned, whatever the delay before the release.
        // A negative check: the queue is given a bounded window to return early (it must not).
        try await observationWindow(.milliseconds(100))
        #expect(log.all == ["push started"])
        release.open()
        _ = try await task.value
        #expect(log.all == ["push started", "push stopped, cancelled", "queue returned"])
        // It finished its work, so it succeeded; nothing after it ran.
        #expect(stubborn.state == .succeeded)
        #expect(refresh.state == .cancelled("the sync was cancelled"))
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
