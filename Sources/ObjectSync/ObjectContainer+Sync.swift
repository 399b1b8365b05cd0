public import Foundation
import DocumentStore
import DocumentIncrementalStore
import DocumentFormat
import CouchProtocol
import Logging
import Replication

extension ObjectContainer {
    /// Syncs the store with `remote`, a CouchDB-compatible database URL (CouchDB, Cloudant,
    /// `recipes serve`; credentials in the URL) or the file URL of another store: pull →
    /// settle conflicts → seed an empty remote → push → refresh the contexts.
    ///
    /// Only one sync of a store file runs at a time, across processes. A pull refuses, before
    /// writing anything of it, a batch holding another app's model metadata. Replication
    /// checkpoints only what is durably written, so a failed or cancelled sync loses nothing
    /// and the next one resumes there; documents the remote refuses stay pending.
    /// - Throws: ``ObjectContainerError/syncAlreadyRunning(_:)``,
    ///   ``ObjectContainerError/unusableRemote(_:cause:)``, or
    ///   ``ObjectContainerError/syncStepFailed(step:cause:)`` naming the step.
    @discardableResult
    public func sync(with remote: URL, options: SyncOptions = .init()) async throws(ObjectContainerError) -> SyncResult {
        let lock = try await lockForSync(options)
        defer { lock?.release() }
        let logger = Logger(label: "objectsync")
        let shown = CredentialMask.masked(remote.isFileURL ? remote.path : remote.absoluteString)
        let peer: any ReplicationPeer
        do {
            if remote.isFileURL {
                peer = LocalDatabase(store: try DocumentStore(path: remote.path))
            } else {
                peer = try CouchDatabase(url: remote.absoluteString, options: options.clientOptions, logger: logger)
            }
        } catch {
            throw .unusableRemote(shown, cause: error)
        }
        let replication = Sync(store: documentStore, remote: peer, logger: logger)
        var result = SyncResult()

        if options.direction != .pushOnly {
            var remoteIsEmpty = false
            try await step("pull") {
                remoteIsEmpty = try await remoteHasNoDocuments(peer)
                guard !remoteIsEmpty else { return }
                var pull = ReplicationOptions()
                pull.admission = { [incrementalStore] revisions in
                    let metadata = revisions.filter { $0.id == DocumentLayout.metadataDocumentID && !$0.deleted }
                    guard !metadata.isEmpty else { return }
                    try incrementalStore.checkIncomingMetadata(metadata.map { ($0.rev.description, $0.body) })
                }
                let summary = try await replication.pull(options: pull, observer: observer("pull", options))
                result.pulled = summary.docsWritten
                result.refused += summary.outstandingRefusals.map { "\($0.id): \($0.reason)" }
            }
            try await step("refresh") { try refreshContexts() }
            try await step("resolve") {
                result.conflictsResolved = try coordinator.resolveReplicaConflicts(policy: options.conflictPolicy).count
            }
            if let seed = options.seed, remoteIsEmpty {
                try await step("seed") {
                    let context = newContext(name: "seed")
                    guard try storeHasNoObjects(context) else { return }
                    try seed(context)
                    try context.save()
                    result.seeded = true
                }
            }
        }
        if options.direction != .pullOnly {
            try await step("push") {
                var push = ReplicationOptions()
                push.createTarget = true
                let summary = try await replication.push(options: push, observer: observer("push", options))
                result.pushed = summary.docsWritten
                result.refused += summary.outstandingRefusals.map { "\($0.id): \($0.reason)" }
            }
        }
        try await step("refresh") { try refreshContexts() }
        return result
    }

    /// Takes the store file's sync lock (an in-memory store has no file, and no other
    /// process can reach it).
    private func lockForSync(_ options: SyncOptions) async throws(ObjectContainerError) -> SyncLock? {
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

    /// Whether the remote database is missing (the push creates it) or holds no document.
    private func remoteHasNoDocuments(_ peer: any ReplicationPeer) async throws -> Bool {
        do {
            return try await peer.databaseInfo().documentCount == 0
        } catch ReplicationError.databaseNotFound {
            return true
        }
    }

    /// Whether no entity of the model has an object in the store.
    private func storeHasNoObjects(_ context: ObjectContext) throws -> Bool {
        for entity in model.entities where entity.superentityName == nil {
            if try context.count(for: FetchRequest(entityName: entity.name)) > 0 { return false }
        }
        return true
    }

    /// Tells every context which documents changed underneath them.
    private func refreshContexts() throws {
        _ = try incrementalStore.processExternalChanges()
    }

    private func observer(_ step: String, _ options: SyncOptions) -> (@Sendable (ReplicationProgress) -> Void)? {
        guard let progress = options.progress else { return nil }
        return { progress(step, $0) }
    }
}
