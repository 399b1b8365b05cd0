import DocumentStore

/// Settings of a live sync.
public struct LiveSyncOptions: Sendable {
    /// Pull: follow the remote's changes feed and copy what it gets.
    public var pull = true
    /// Push: watch the store and copy its new revisions to the remote.
    public var push = true
    /// How often the store is checked for new revisions (its last sequence, one indexed
    /// read), so saves by this or any other process on the same file are pushed this soon.
    public var localPollInterval: Duration = .milliseconds(250)
    /// The longest one wait on the remote's changes feed lasts before it is asked again.
    public var remoteWaitTimeout: Duration = .seconds(60)
    /// The delay before the first retry after the remote could not be reached.
    public var initialBackoff: Duration = .milliseconds(500)
    /// The longest delay between two retries; the delay doubles up to it, and goes back to
    /// `initialBackoff` after a success.
    public var maxBackoff: Duration = .seconds(30)
    /// While waiting out a delay after the remote could not be reached (no connection, or no
    /// answer in time), how often it is asked whether it answers again
    /// (``ReplicationPeer/isReachable(timeout:)``), so the sync resumes within about this long
    /// of the remote coming back, however long the delay has grown. A remote that answers but
    /// fails is left alone for the whole delay.
    public var reachabilityProbeInterval: Duration = .milliseconds(500)
    /// How long one such probe waits for an answer. It is apart from the interval: a remote
    /// that is back but busy (a loaded machine, a server still warming up) may take longer
    /// than the interval to answer, and a probe that gave up sooner would miss it every time.
    /// A refused connection fails at once whatever this is.
    public var reachabilityProbeTimeout: Duration = .seconds(5)

    /// Defaults: both directions, the store checked every 250 ms, retries from 0.5 s
    /// doubling to 30 s.
    public init() {}
}

/// The events of a live sync, as an `AsyncSequence`.
///
/// The work starts when iteration starts (each iteration runs a live sync of its own) and
/// runs in a task of its own. Cancelling the
/// iterating task (or ending the iteration early) cancels it; the iteration still delivers
/// what the work reports while it winds down and ends with ``LiveSyncEvent/stopped(_:)``
/// only once it has really stopped, with its checkpoints saved, so a caller that iterates
/// to the end knows nothing runs any more.
public struct LiveSyncEvents: AsyncSequence, Sendable {
    public typealias Element = LiveSyncEvent

    /// What one pull did: revisions written, and the remote sequence it reached (where the
    /// wait for the remote's next changes starts).
    public struct PullResult: Sendable {
        /// Revisions written into the store.
        public var written: Int
        /// The remote's changes-feed position the pull reached (`nil`: the start).
        public var remoteSequence: ReplicationSequence?

        /// Makes a pull result.
        public init(written: Int, remoteSequence: ReplicationSequence?) {
            self.written = written
            self.remoteSequence = remoteSequence
        }
    }

    private let loop: LiveSyncLoop

    /// A live sync made of one-shot steps: `pull` runs at the start and whenever `remote`
    /// has changes after the sequence the last pull reached; `push` runs at the start and
    /// whenever `localSequence` moves (it is read every ``LiveSyncOptions/localPollInterval``).
    /// ``Sync/live(options:replication:)`` fills these with plain replications; RecipesKit with its
    /// sync steps (conflict resolution and refresh after a pull).
    public init(remote: any ReplicationPeer, options: LiveSyncOptions = .init(),
                localSequence: @escaping @Sendable () async throws -> Int64,
                pull: @escaping @Sendable () async throws -> PullResult,
                push: @escaping @Sendable () async throws -> Int) {
        loop = LiveSyncLoop(remote: remote, options: options, localSequence: localSequence, pull: pull, push: push)
    }

    /// Starts the live sync.
    public func makeAsyncIterator() -> Iterator {
        let (events, continuation) = AsyncStream.makeStream(of: LiveSyncEvent.self)
        let loop = self.loop
        let task = Task { await loop.run(continuation) }
        return Iterator(core: IteratorCore(events: events, task: task))
    }

    /// Delivers the events in order. Cancelling the iterating task stops the live sync, and
    /// the events it reports while stopping, up to ``LiveSyncEvent/stopped(_:)``, are still
    /// delivered: the caller learns how it ended.
    public struct Iterator: AsyncIteratorProtocol {
        let core: IteratorCore

        /// The next event, or `nil` after ``LiveSyncEvent/stopped(_:)``.
        public func next() async -> LiveSyncEvent? {
            await core.events.nextOutlivingCancellation(stopping: core.task)
        }
    }

    /// Owns the running work: dropping the iterator cancels it.
    final class IteratorCore: Sendable {
        let events: AsyncStream<LiveSyncEvent>
        let task: Task<Void, Never>

        init(events: AsyncStream<LiveSyncEvent>, task: Task<Void, Never>) {
            self.events = events
            self.task = task
        }

        deinit { task.cancel() }
    }
}

/// The live sync itself: rounds of pull and push, waits on both sides between them, and
/// retries with backoff while the remote cannot be reached.
struct LiveSyncLoop: Sendable {
    let remote: any ReplicationPeer
    let options: LiveSyncOptions
    let localSequence: @Sendable () async throws -> Int64
    let pull: @Sendable () async throws -> LiveSyncEvents.PullResult
    let push: @Sendable () async throws -> Int

    private enum Wake: Sendable { case remote, local, timeout }

    func run(_ events: AsyncStream<LiveSyncEvent>.Continuation) async {
        var lastEvent: LiveSyncEvent?
        // A state is reported once: `caughtUp` after a round that moved nothing new, or the
        // same `offline` at the longest delay, is not repeated.
        func emit(_ event: LiveSyncEvent) {
            switch event {
            case .caughtUp, .offline: if event == lastEvent { return }
            default: break
            }
            lastEvent = event
            events.yield(event)
        }
        var backoff = options.initialBackoff
        var retriedOnProbe = false
        var connected = false
        var needPull = options.pull
        var needPush = options.push
        var pushedThrough: Int64?
        var remoteSince: ReplicationSequence?
        defer { events.finish() }
        while true {
            do {
                if Task.isCancelled { throw ReplicationError.cancelled }
                var ran = false
                if needPull {
                    let result = try await pull()
                    needPull = false
                    ran = true
                    remoteSince = result.remoteSequence
                    if !connected { connected = true; emit(.connected) }
                    if result.written > 0 { emit(.pulled(result.written)) }
                }
                if options.push {
                    let mark = try await localSequence()
                    if needPush || mark != pushedThrough {
                        let written = try await push()
                        needPush = false
                        ran = true
                        pushedThrough = mark
                        if !connected { connected = true; emit(.connected) }
                        if written > 0 { emit(.pushed(written)) }
                    }
                }
                if ran {
                    backoff = options.initialBackoff
                    retriedOnProbe = false
                    emit(.caughtUp)
                }
                switch try await waitForWork(remoteSince: remoteSince, pushedThrough: pushedThrough) {
                case .remote: needPull = true
                case .local: break  // the next round compares the sequence itself
                case .timeout: break
                }
            } catch {
                let mapped = Self.mapped(error)
                if Task.isCancelled || mapped == .cancelled {
                    emit(.stopped(.cancelled))
                    return
                }
                if Self.isFatal(mapped) {
                    emit(.stopped(.failed(mapped)))
                    return
                }
                connected = false
                needPull = options.pull
                needPush = options.push
                emit(.offline(mapped, retryIn: backoff))
                // Probing is for a remote that could not be reached; a retry the probe woke that
                // fails the same way again waits its whole delay (the probe and the sync's
                // requests disagree, so the probe is no guide).
                let probing = Self.isUnreachable(mapped) && !retriedOnProbe
                do {
                    retriedOnProbe = try await pause(backoff, probing: probing)
                } catch {
                    emit(.stopped(.cancelled))
                    return
                }
                backoff = min(backoff * 2, options.maxBackoff)
            }
        }
    }

    /// Sleeps for `delay`; with `probing`, asks the remote every
    /// ``LiveSyncOptions/reachabilityProbeInterval`` whether it answers and ends early once it
    /// does. Returns whether it ended early.
    private func pause(_ delay: Duration, probing: Bool) async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: delay)
        guard probing else {
            try await Task.sleep(for: delay)
            return false
        }
        while true {
            let left = clock.now.duration(to: deadline)
            if left <= .zero { return false }
            try await Task.sleep(for: min(options.reachabilityProbeInterval, left))
            if clock.now >= deadline { return false }
            let wait = min(options.reachabilityProbeTimeout, clock.now.duration(to: deadline))
            if wait > .zero, await remote.isReachable(timeout: wait) { return true }
        }
    }

    /// Whether `error` says the remote could not be reached at all (rather than that it
    /// answered with a failure).
    static func isUnreachable(_ error: ReplicationError) -> Bool {
        switch error {
        case .unreachable, .timedOut: return true
        default: return false
        }
    }

    /// Waits until the remote has changes after `remoteSince`, the store's sequence moves
    /// past `pushedThrough`, or the remote wait times out, whichever comes first.
    private func waitForWork(remoteSince: ReplicationSequence?, pushedThrough: Int64?) async throws -> Wake {
        let remote = self.remote
        let options = self.options
        let localSequence = self.localSequence
        return try await withThrowingTaskGroup(of: Wake.self) { group in
            if options.pull {
                group.addTask {
                    try await remote.waitForChanges(since: remoteSince, timeout: options.remoteWaitTimeout) ? .remote : .timeout
                }
            }
            if options.push {
                group.addTask {
                    while true {
                        do {
                            try await Task.sleep(for: options.localPollInterval)
                        } catch {
                            throw ReplicationError.cancelled
                        }
                        if try await localSequence() != pushedThrough { return .local }
                    }
                }
            }
            defer { group.cancelAll() }
            return try await group.next() ?? .timeout
        }
    }

    /// Any error as a `ReplicationError` (a local failure as `.store`).
    static func mapped(_ error: any Error) -> ReplicationError {
        switch error {
        case let error as ReplicationError: return error
        case is CancellationError: return .cancelled
        case let error as DocumentStoreError: return .store(error.description, cause: error)
        default: return .store(String(describing: error), cause: error)
        }
    }

    /// Errors retrying cannot fix.
    static func isFatal(_ error: ReplicationError) -> Bool {
        switch error {
        case .unauthorized, .forbidden, .invalidURL, .store, .untrustedCertificate: return true
        default: return false
        }
    }
}
