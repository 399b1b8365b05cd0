public import Foundation
import DocumentStore
import DocumentIncrementalStore
import DocumentFormat
import Logging
import Replication

extension ObjectContainer {
    /// Syncs the store with `remote`, a CouchDB-compatible database URL (CouchDB, Cloudant,
    /// `recipes serve`; credentials in the URL) or the file URL of another store: pull →
    /// settle conflicts → seed an empty remote → push → refresh the contexts (once, at the
    /// end, for whatever the pull and the settling changed).
    ///
    /// Only one sync of a store file runs at a time, across processes. A pull refuses, before
    /// writing anything of it, a batch holding another app's model metadata. Replication
    /// checkpoints only what is durably written, so a failed or cancelled sync loses nothing
    /// and the next one resumes there; documents the remote refuses stay pending.
    /// - Throws: `ObjectContainerError.syncAlreadyRunning`,
    ///   `ObjectContainerError.unusableRemote`, or
    ///   `ObjectContainerError.syncStepFailed` naming the step.
    @discardableResult
    public func sync(with remote: URL, options: SyncOptions = .init()) async throws(ObjectContainerError) -> SyncResult {
        let lock = try await lockForSync(options)
        defer { lock?.release() }
        let steps = try storeSync(with: remote, options: options)
        var result = SyncResult()

        if options.direction != .pushOnly {
            var remoteIsEmpty = false
            try await step("pull") {
                remoteIsEmpty = try await steps.remoteIsEmpty()
                guard !remoteIsEmpty, let summary = try await steps.pull(progress: observer("pull", options)) else { return }
                result.pulled = summary.docsWritten
                result.refused += summary.outstandingRefusals.map { "\($0.id): \($0.reason)" }
            }
            try await step("resolve") { result.conflictsResolved = try steps.resolveConflicts(policy: options.conflictPolicy) }
            if let seed = options.seed, remoteIsEmpty {
                try await step("seed") { result.seeded = try steps.seedIfEmpty(with: seed) }
            }
        }
        if options.direction != .pullOnly {
            try await step("push") {
                let summary = try await steps.push(progress: observer("push", options))
                result.pushed = summary.docsWritten
                result.refused += summary.outstandingRefusals.map { "\($0.id): \($0.reason)" }
            }
        }
        try await step("refresh") { try steps.refresh() }
        return result
    }

    /// The sync steps of this container's store with `remote`, reached with `options.clientOptions`.
    /// - Throws: `ObjectContainerError.unusableRemote`.
    func storeSync(with remote: URL, options: SyncOptions) throws(ObjectContainerError) -> StoreSync {
        let logger = Logger(label: "objectsync")
        return StoreSync(documentStore: documentStore, incrementalStore: incrementalStore, coordinator: coordinator,
                         remote: try StoreSync.peer(for: remote, clientOptions: options.clientOptions, logger: logger),
                         remoteDescription: StoreSync.masked(remote), logger: logger)
    }

    /// Takes the store file's sync lock (an in-memory store has no file, and no other
    /// process can reach it): at once, or waiting up to `options.lockTimeout`.
    func lockForSync(_ options: SyncOptions) async throws(ObjectContainerError) -> SyncLock? {
        guard let url else { return nil }
        do {
            if let timeout = options.lockTimeout {
                return try await SyncLock.acquire(forStore: url, timeout: timeout)
            }
            return try SyncLock.tryAcquire(forStore: url)
        } catch let error as SyncLockError {
            throw .syncAlreadyRunning(error)
        } catch {
            throw .syncStepFailed(step: "lock", cause: error)
        }
    }

    /// Runs one step, naming it in its failure.
    private func step(_ name: String, _ body: () async throws -> Void) async throws(ObjectContainerError) {
        do {
            try await body()
        } catch let error as ObjectContainerError {
            throw error
        } catch {
            throw .syncStepFailed(step: name, cause: error)
        }
    }

    private func observer(_ step: String, _ options: SyncOptions) -> (@Sendable (ReplicationProgress) -> Void)? {
        options.observer(step)
    }
}
