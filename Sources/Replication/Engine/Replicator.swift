import CouchProtocol
import Crypto
import DocumentStore
import Foundation
public import Logging
import Synchronization
import DocumentFormat

/// Copies every document revision the target lacks from a source peer to a target peer, with
/// the CouchDB replication protocol: changes feed in batches, `revs_diff`, fetch with history,
/// `new_edits=false` writes, and a checkpoint on both sides after each durable batch.
///
/// Pull is `Replicator(source: CouchDatabase, target: LocalDatabase)`, push the reverse, and
/// two `LocalDatabase`s replicate without any server. While one batch is written the next is
/// already being read, and fetches and writes to a server run over several connections.
public final class Replicator: Sendable {
    /// Where documents come from.
    public let source: any ReplicationPeer
    /// Where documents go.
    public let target: any ReplicationPeer
    /// The run's settings.
    public let options: ReplicationOptions
    private let observer: (@Sendable (ReplicationProgress) -> Void)?
    private let logger: Logger

    /// Sets up a replication; nothing happens until `run()`.
    public init(source: any ReplicationPeer, target: any ReplicationPeer, options: ReplicationOptions = .init(),
                logger: Logger = Logger(label: "recipes.replication"),
                observer: (@Sendable (ReplicationProgress) -> Void)? = nil) {
        self.source = source
        self.target = target
        self.options = options
        self.logger = logger
        self.observer = observer
    }

    /// A stable hash of both peers' identities (local store UUID, remote URL without
    /// credentials), the direction and the filters (`filter`, `docIDs`, `selector`): the
    /// name of the checkpoint documents, so a changed filter starts its own history.
    public var replicationID: String {
        var parts = ["recipes-replication-1", "source=" + source.peerIdentity, "target=" + target.peerIdentity,
                     "filter=" + (options.filter?.name ?? "")]
        // Only present when set, so unfiltered replications keep the IDs they always had.
        if let ids = options.docIDs { parts.append("doc_ids=" + JSONWriter.canonical.string(.array(ids.sorted().map { .string($0) }))) }
        if let selector = options.selector { parts.append("selector=" + JSONWriter.canonical.string(selector)) }
        let text = parts.joined(separator: "\n")
        return Hex.lowercase(SHA256.hash(data: Data(text.utf8)).prefix(16))
    }

    /// One batch read from the source, ready to write.
    private struct Batch: Sendable {
        var changes: Int
        /// Every document the batch covers, including those left out as already held: an
        /// earlier refusal of any of them is settled by this batch.
        var documentIDs: Set<String>
        /// Each changed document's leaf revisions on the source, as its changes feed listed
        /// them (filter applied), less those the target already remembers the source holding.
        var listed: [String: [RevisionID]]
        /// Of `listed`, what was offered to the target: those it was not remembered to hold.
        var offered: [String: [RevisionID]]
        var revisions: [ReplicatedRevision]
        var readFailures: [DocumentFailure]
        var lastSequence: ReplicationSequence
        var isLast: Bool
        var pending: Int?
        /// Revisions asked about in `_revs_diff`, and those the target lacked.
        var revisionsChecked = 0
        var missingRevisionsFound = 0
    }

    /// Mutable state of one run, behind a lock: the batch being written and the one being
    /// read run in different tasks, and the observer is called from either.
    private final class RunState: Sendable {
        /// The values the run updates as it goes.
        struct Values: Sendable {
            var progress = ReplicationProgress()
            var failures: [DocumentFailure] = []
            var checkpointRefused = false
            var sourceCheckpoint: JSONObject?
            var targetCheckpoint: JSONObject?
            var endSequence: ReplicationSequence?
            /// The source database's instance, as its info reported it at the start.
            var sourceInstance: String?
            /// Each side's identity and instance (`identity@instance`), under which the other
            /// side remembers what it holds; nil when that side reports no instance, and
            /// then nothing is remembered about it (README, "No echo").
            var sourceKey: String?
            var targetKey: String?
            /// Batches with changes since the last checkpoint (see `write`).
            var uncheckpointedBatches = 0
            /// The `docIDs` and `selector` filters, checked before anything is transferred.
            var selection: ChangesSelection?
            /// Documents not copied yet (refused by the target or not supplied by the source),
            /// by ID: those the checkpoint carried over from earlier runs, less those copied
            /// since, plus this run's. Every checkpoint lists them, and the next run offers
            /// them again, so the checkpoint moving past a document never forgets it.
            var refusals: [String: DocumentFailure] = [:]
            /// Whether `refusals` changed since the last checkpoint.
            var refusalsChanged = false
            /// Whether `refusals` grew past what a checkpoint lists; the checkpoint then
            /// stays where it is for the rest of the run.
            var refusalsOverflowed = false
        }

        private let values = Mutex(Values())

        /// A copy of the values as they are now.
        var snapshot: Values { values.withLock { $0 } }

        /// Changes the values under the lock.
        func update(_ change: (inout Values) -> Void) {
            values.withLock { change(&$0) }
        }
    }

    /// Runs the replication to the end of the source's changes feed as it is now, and
    /// returns what it did. Cancelling the task stops it between requests
    /// (`ReplicationError.cancelled`); whatever was checkpointed stays, and the next run
    /// resumes there.
    public func run() async throws -> ReplicationSummary {
        let started = Date()
        let sessionID = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let repID = replicationID
        let state = RunState()
        report(state)
        do {
            let selection = try options.changesSelection()
            state.update { $0.selection = selection }
            async let sourceInfo = source.databaseInfo()
            if options.createTarget {
                try await target.createDatabase()
            }
            let targetInstance = try await target.databaseInfo().instance
            let sourceInstance = try await sourceInfo.instance
            async let sourceCheckpoint = source.localDocument(id: repID)
            let targetCheckpoint = try await target.localDocument(id: repID)
            let sourceCopy = try await sourceCheckpoint
            state.update {
                $0.sourceCheckpoint = sourceCopy
                $0.targetCheckpoint = targetCheckpoint
                $0.sourceInstance = sourceInstance
            }
            let start = ReplicationCheckpoint.startSequence(source: sourceCopy, target: targetCheckpoint,
                                                            sourceInstance: sourceInstance)
            if start != nil {
                // A run from the start meets every document again anyway.
                let carried = ReplicationCheckpoint.refusals(source: sourceCopy, target: targetCheckpoint)
                state.update { $0.refusals = carried }
            }
            let sourceKey = sourceInstance.map { source.peerIdentity + "@" + $0 }
            let targetKey = targetInstance.map { target.peerIdentity + "@" + $0 }
            state.update {
                $0.sourceKey = sourceKey
                $0.targetKey = targetKey
            }
            // What was remembered of an earlier instance of either database no longer holds;
            // nor does what was remembered of a database whose checkpoint copy vanished while
            // the other side's stayed (it was recreated, whatever its instance stamp says).
            if let sourceKey {
                try await target.forgetOtherInstances(
                    of: sourceKey, includingThis: Self.copyVanished(sourceCopy, besides: targetCheckpoint))
            }
            if let targetKey {
                try await source.forgetOtherInstances(
                    of: targetKey, includingThis: Self.copyVanished(targetCheckpoint, besides: sourceCopy))
            }
            logger.info("replication \(repID) \(source.peerIdentity) -> \(target.peerIdentity) from \(start?.description ?? "the start")")
            state.update {
                $0.endSequence = start
                $0.progress.state = .running
            }
            report(state)
            if let start, let retry = try await retryBatch(at: start, state: state) {
                try await write(retry, state: state, sessionID: sessionID, started: started, start: start)
            }
            let first = try await readBatch(since: start, state: state)
            try await process(first, state: state, sessionID: sessionID, started: started, start: start)
            state.update { $0.progress.state = .completed }
            report(state)
            let done = state.snapshot
            let summary = ReplicationSummary(
                replicationID: repID, sessionID: sessionID, startSequence: start, endSequence: done.endSequence,
                changesProcessed: done.progress.changesProcessed, docsRead: done.progress.docsRead,
                docsWritten: done.progress.docsWritten, docsFailed: done.progress.docsFailed,
                failures: done.failures, bytesTransferred: done.progress.bytesTransferred,
                checkpointRefused: done.checkpointRefused, duration: Date().timeIntervalSince(started),
                outstandingRefusals: done.refusals.keys.sorted().compactMap { done.refusals[$0] })
            logger.info("replication \(repID) done: \(summary.docsWritten) written, \(summary.docsFailed) failed, up to \(summary.endSequence?.description ?? "start")")
            return summary
        } catch {
            let mapped: Error
            if error is CancellationError || Task.isCancelled {
                mapped = ReplicationError.cancelled
            } else if let error = error as? DocumentStoreError {
                mapped = ReplicationError.store(error.description, cause: error)
            } else {
                mapped = error
            }
            if case ReplicationError.cancelled = mapped {
                state.update { $0.progress.state = .cancelled }
            } else {
                state.update { $0.progress.state = .failed("\(mapped)") }
            }
            report(state)
            // The error goes to the caller, who decides what it means: a missing database
            // is expected before a first push creates it, and a cancellation is asked for.
            switch mapped {
            case ReplicationError.cancelled, ReplicationError.databaseNotFound:
                logger.info("replication \(repID) stopped: \(mapped)")
            default:
                logger.error("replication \(repID) stopped: \(mapped)")
            }
            throw mapped
        }
    }

    /// Writes a batch while the next one is read (the read is a child task, so an error or a
    /// cancellation here stops it too).
    private func process(_ batch: Batch, state: RunState, sessionID: String, started: Date,
                         start: ReplicationSequence?) async throws {
        var current = batch
        while true {
            if current.isLast {
                try await write(current, state: state, sessionID: sessionID, started: started, start: start)
                return
            }
            let since = current.lastSequence
            async let next = readBatch(since: since, state: state)
            try await write(current, state: state, sessionID: sessionID, started: started, start: start)
            current = try await next
        }
    }

    /// Reads the changes after `since`, asks the target what it lacks and fetches that.
    private func readBatch(since: ReplicationSequence?, state: RunState) async throws -> Batch {
        try Task.checkCancellation()
        let (page, isLast) = try await ChangesFeed.page(of: source, since: since, pageSize: options.batchSize,
                                                        selection: state.snapshot.selection)
        var listed: [String: [RevisionID]] = [:]
        for row in page.rows where options.filter?.includes(row.id) ?? true {
            listed[row.id, default: []].append(contentsOf: row.revisions)
        }
        return try await prepare(listed, changes: page.rows.count, lastSequence: page.lastSequence, isLast: isLast,
                                 pending: page.pending, state: state)
    }

    /// The batch that offers again, before the changes after `start`, the documents earlier
    /// runs could not copy (the checkpoint's `refused` list), at their leaves as they are now;
    /// `nil` when there are none. A document the source no longer holds, or that the
    /// replication's filters now leave out, has nothing left to copy and is dropped.
    private func retryBatch(at start: ReplicationSequence, state: RunState) async throws -> Batch? {
        let current = state.snapshot
        guard !current.refusals.isEmpty else { return nil }
        var ids = Set(current.refusals.keys)
        if let filter = options.filter { ids = ids.filter { filter.includes($0) } }
        if let docIDs = current.selection?.docIDs { ids.formIntersection(docIDs) }
        let leaves = try await source.currentLeaves(of: ids, selector: current.selection?.selector)
        state.update { values in
            for id in current.refusals.keys where leaves[id] == nil {
                values.refusals[id] = nil
                values.refusalsChanged = true
            }
        }
        logger.info("offering again \(leaves.count) document(s) not copied by an earlier run")
        return try await prepare(leaves, changes: 0, lastSequence: start, isLast: false, pending: nil, state: state)
    }

    /// Asks the target which of the `listed` leaves it lacks and fetches those.
    private func prepare(_ listedLeaves: [String: [RevisionID]], changes: Int, lastSequence: ReplicationSequence,
                         isLast: Bool, pending: Int?, state: RunState) async throws -> Batch {
        var listed = listedLeaves
        let documentIDs = Set(listed.keys)
        // Revisions the target is remembered to hold (it sent them, or took them) are not
        // offered back to it.
        if let sourceKey = state.snapshot.sourceKey, !listed.isEmpty {
            // What the target remembers the source holding came to the target from the source
            // or went from the target to it, so the target holds it too: nothing to ask for,
            // and nothing new to remember. This is what keeps the first pull after a large push
            // from asking about, and re-recording, everything the push sent.
            for id in try await target.documentsHeld(listed, by: sourceKey) { listed[id] = nil }
        }
        var wanted = listed
        if let targetKey = state.snapshot.targetKey, !listed.isEmpty {
            for id in try await source.documentsHeld(listed, by: targetKey) { wanted[id] = nil }
        }
        if wanted.isEmpty {
            return Batch(changes: changes, documentIDs: documentIDs, listed: listed, offered: [:], revisions: [],
                         readFailures: [], lastSequence: lastSequence, isLast: isLast, pending: pending)
        }
        let diff = try await target.revsDiff(wanted)
        let fetches = diff.sorted { $0.key < $1.key }.map {
            RevisionFetch(id: $0.key, revisions: $0.value.missing, attachmentsSince: $0.value.possibleAncestors)
        }
        let chunkSize = source.preferredConcurrency > 1
            ? max(1, min(options.documentsPerFetch, (fetches.count + source.preferredConcurrency - 1) / source.preferredConcurrency))
            : max(1, fetches.count)
        let chunks = stride(from: 0, to: fetches.count, by: chunkSize).map { Array(fetches[$0..<min($0 + chunkSize, fetches.count)]) }
        let reader = source
        let results = try await chunks.concurrentMap(limit: reader.preferredConcurrency) { try await reader.fetchRevisions($0) }
        var revisions: [ReplicatedRevision] = []
        var failures: [DocumentFailure] = []
        for result in results {
            revisions += result.revisions
            failures += result.failures
        }
        var batch = Batch(changes: changes, documentIDs: documentIDs, listed: listed, offered: wanted, revisions: revisions,
                          readFailures: failures, lastSequence: lastSequence, isLast: isLast, pending: pending)
        batch.revisionsChecked = wanted.values.reduce(0) { $0 + $1.count }
        batch.missingRevisionsFound = diff.values.reduce(0) { $0 + $1.missing.count }
        return batch
    }

    /// Writes a batch to the target, then records the checkpoint on both sides.
    private func write(_ batch: Batch, state: RunState, sessionID: String, started: Date,
                       start: ReplicationSequence?) async throws {
        try Task.checkCancellation()
        if let admission = options.admission, !batch.revisions.isEmpty { try admission(batch.revisions) }
        var writeFailures: [DocumentFailure] = []
        if !batch.revisions.isEmpty {
            let writer = target
            writeFailures = try await writeChunks(batch.revisions)
                .concurrentMap(limit: writer.preferredConcurrency) { try await writer.writeRevisions($0) }
                .flatMap { $0 }
        }
        let allFailures = batch.readFailures + writeFailures
        for failure in allFailures {
            logger.warning("document not replicated: \(failure)")
        }
        try await remember(batch, failures: allFailures, state: state)
        let written = batch.revisions.count - writeFailures.count
        let bytes = batch.revisions.reduce(0) { $0 + $1.attachmentBytesToSend }
        state.update { values in
            values.progress.changesProcessed += batch.changes
            values.progress.revisionsChecked += batch.revisionsChecked
            values.progress.missingRevisionsFound += batch.missingRevisionsFound
            values.progress.docsRead += batch.revisions.count
            values.progress.docsWritten += written
            values.progress.docsFailed += allFailures.count
            values.progress.bytesTransferred += bytes
            values.progress.totalChangesEstimate = batch.pending.map { pending in
                // Peers hold `pending` to WireNumber's range; saturate anyway, as an estimate
                // is no reason to stop a replication.
                let (sum, overflow) = values.progress.changesProcessed.addingReportingOverflow(pending)
                return overflow ? Int.max : sum
            } ?? max(values.progress.totalChangesEstimate ?? 0, values.progress.changesProcessed)
            if values.failures.count < 1000 { values.failures += allFailures.prefix(1000 - values.failures.count) }
            for id in batch.documentIDs where values.refusals[id] != nil {
                values.refusals[id] = nil
                values.refusalsChanged = true
            }
            for failure in allFailures {
                values.refusals[failure.id] = failure
                values.refusalsChanged = true
            }
        }
        // A batch that moved nothing is checkpointed only every `idleBatchesPerCheckpoint`
        // batches and at the end: a no-op push of 180,000 remembered documents would
        // otherwise spend most of its time writing checkpoints.
        let movedNothing = batch.revisions.isEmpty && allFailures.isEmpty
        var due = false
        var overflowedNow = false
        state.update { values in
            if batch.changes > 0 { values.uncheckpointedBatches += 1 }
            due = values.refusalsChanged || (values.uncheckpointedBatches > 0
                && (!movedNothing || batch.isLast || values.uncheckpointedBatches >= Self.idleBatchesPerCheckpoint))
            if values.refusals.count > ReplicationCheckpoint.refusalLimit {
                overflowedNow = !values.refusalsOverflowed
                values.refusalsOverflowed = true
            }
            // Past the limit the checkpoint stays where it is, so the next run reads these
            // changes again rather than losing the refusals a checkpoint could not list.
            if values.refusalsOverflowed { due = false }
            if due {
                values.uncheckpointedBatches = 0
                values.refusalsChanged = false
            }
        }
        if overflowedNow {
            logger.warning("more than \(ReplicationCheckpoint.refusalLimit) documents refused; the checkpoint stays where it is for this run, and the next run reads these changes again")
        }
        if due {
            try await checkpoint(batch.lastSequence, state: state, sessionID: sessionID, started: started, start: start)
        }
        state.update { $0.endSequence = batch.lastSequence }
        report(state)
    }

    /// Whether one side's checkpoint copy is gone while the other side still has its copy,
    /// which did not record that this side refused to keep one.
    private static func copyVanished(_ copy: JSONObject?, besides other: JSONObject?) -> Bool {
        guard copy == nil, let other else { return false }
        return other["peer_refused_checkpoint"] == nil
    }

    /// Batches that moved nothing between two checkpoints, at most.
    static let idleBatchesPerCheckpoint = 20

    /// Once a batch is written, each side that keeps a memory remembers what the other now
    /// holds: the target, that the source holds what its changes feed listed; the source,
    /// that the target holds what was offered to it and not refused.
    private func remember(_ batch: Batch, failures: [DocumentFailure], state: RunState) async throws {
        let keys = state.snapshot
        if let sourceKey = keys.sourceKey, !batch.listed.isEmpty {
            // What the target refused is not remembered either: a pull that finds the source's
            // revisions remembered trusts the target to hold them too.
            var listed = batch.listed
            for failure in failures { listed[failure.id] = nil }
            if !listed.isEmpty { try await target.recordRevisions(listed, heldBy: sourceKey) }
        }
        if let targetKey = keys.targetKey, !batch.offered.isEmpty {
            var accepted = batch.offered
            for failure in failures { accepted[failure.id] = nil }
            try await source.recordRevisions(accepted, heldBy: targetKey)
        }
    }

    /// Groups revisions into write requests bounded by count and attachment bytes.
    private func writeChunks(_ revisions: [ReplicatedRevision]) -> [[ReplicatedRevision]] {
        guard target.preferredConcurrency > 1 else { return [revisions] }
        let perRequest = max(1, min(options.documentsPerWrite,
                                    (revisions.count + target.preferredConcurrency - 1) / target.preferredConcurrency))
        var chunks: [[ReplicatedRevision]] = []
        var current: [ReplicatedRevision] = []
        var bytes = 0
        for revision in revisions {
            let size = revision.attachmentBytesToSend
            if !current.isEmpty, current.count >= perRequest || bytes + size > options.bytesPerWrite {
                chunks.append(current)
                current = []
                bytes = 0
            }
            current.append(revision)
            bytes += size
        }
        if !current.isEmpty { chunks.append(current) }
        return chunks
    }

    /// Records `sequence` in `_local/<id>` on the target, then the source. A peer that refuses
    /// (401/403) keeps no copy; the other side's copy says so and the run goes on.
    private func checkpoint(_ sequence: ReplicationSequence, state: RunState, sessionID: String, started: Date,
                            start: ReplicationSequence?) async throws {
        let repID = replicationID
        var refusedNow = false
        for side in [Side.target, .source] {
            let peer = side == .target ? target : source
            let current = state.snapshot
            let previous = side == .target ? current.targetCheckpoint : current.sourceCheckpoint
            let body = ReplicationCheckpoint.body(sessionID: sessionID, startTime: started, startSequence: start,
                                                  recorded: sequence, progress: current.progress, previous: previous,
                                                  peerRefused: current.checkpointRefused || refusedNow,
                                                  sourceInstance: current.sourceInstance, refusals: current.refusals)
            do {
                try await peer.putLocalDocument(id: repID, body: body)
                state.update { if side == .target { $0.targetCheckpoint = body } else { $0.sourceCheckpoint = body } }
            } catch let error as ReplicationError {
                switch error {
                case .unauthorized, .forbidden:
                    if !current.checkpointRefused {
                        logger.warning("\(peer.peerIdentity) refused the checkpoint (\(error)); keeping the other side's copy")
                    }
                    refusedNow = true
                    state.update { $0.checkpointRefused = true }
                default:
                    throw error
                }
            }
        }
        if refusedNow {
            // The side that accepted must know the other refused, so the next run trusts it alone.
            for side in [Side.target, .source] {
                let peer = side == .target ? target : source
                let current = state.snapshot
                guard let copy = side == .target ? current.targetCheckpoint : current.sourceCheckpoint,
                      copy["session_id"]?.stringValue == sessionID, copy["source_last_seq"] == sequence.value,
                      copy["peer_refused_checkpoint"] == nil else { continue }
                var updated = copy
                updated["peer_refused_checkpoint"] = .bool(true)
                try await peer.putLocalDocument(id: repID, body: updated)
                state.update { if side == .target { $0.targetCheckpoint = updated } else { $0.sourceCheckpoint = updated } }
            }
        }
    }

    private enum Side { case source, target }

    private func report(_ state: RunState) {
        observer?(state.snapshot.progress)
    }
}
