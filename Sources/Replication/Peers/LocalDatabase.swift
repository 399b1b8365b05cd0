public import CouchProtocol
public import DocumentStore
public import Foundation
public import DocumentFormat

/// A local `DocumentStore` as a replication peer: the local side of every pull and push, and
/// both sides of a local-to-local replication (the embedded default, no server needed).
///
/// Every call runs its SQLite work in the store's `DocumentStore.withReader(_:)` or
/// `DocumentStore.withWriter(_:)`, on GRDB's connections, as the server does, so a large write
/// never holds one of the threads other tasks need.
public struct LocalDatabase: ReplicationPeer {
    /// The store replicated.
    public let store: DocumentStore
    /// Attachments larger than this stay in the store until written (read on demand).
    public var deferAttachmentsLargerThan: Int

    /// Wraps a store.
    public init(store: DocumentStore, deferAttachmentsLargerThan: Int = 256 * 1024) {
        self.store = store
        self.deferAttachmentsLargerThan = deferAttachmentsLargerThan
    }

    /// `local:<store UUID>`: stable across reopen and moves of the file.
    public var peerIdentity: String { "local:\(store.storeID)" }

    /// One: SQLite has a single writer, and reads are fast enough in one go.
    public var preferredConcurrency: Int { 1 }

    /// The store's last sequence and live document count.
    public func databaseInfo() async throws -> DatabaseInfo {
        try await onReader { store in
            DatabaseInfo(updateSequence: ReplicationSequence(.int(try store.lastSequence)),
                         documentCount: try store.documentCount(), instance: self.store.storeID)
        }
    }

    /// A local store always exists once opened.
    public func createDatabase() async throws {}

    /// Keeps in the store which revisions `peer` holds (`DocumentStore.recordRevisions`).
    public func recordRevisions(_ revisions: [String: [RevisionID]], heldBy peer: String) async throws {
        try await onWriter { store in try store.recordRevisions(revisions, heldBy: peer) }
    }

    /// The documents the store remembers `peer` holding at these revisions.
    public func documentsHeld(_ revisions: [String: [RevisionID]], by peer: String) async throws -> Set<String> {
        try await onReader { store in try store.documentsHeld(revisions, by: peer) }
    }

    /// Drops what the store remembers of the other instances of `peer`'s database.
    public func forgetOtherInstances(of peer: String, includingThis: Bool) async throws {
        guard let at = peer.lastIndex(of: "@") else { return }
        try await onWriter { store in try store.forgetPeers(withPrefix: String(peer[...at]), except: includingThis ? nil : peer) }
    }

    /// The store's changes feed; its sequences are the store's own integers. A `selection`
    /// is applied to each page read (winning bodies read in one statement for a selector),
    /// so a page may hold fewer rows than `limit` without being the last (`reachedEnd`).
    public func changes(since: ReplicationSequence?, limit: Int, selection: ChangesSelection?) async throws -> ChangesPage {
        let start = try localSequence(since)
        return try await onReader { store in
            let batch = try store.changes(since: start, limit: limit)
            var changes = batch.changes
            if let selection {
                changes = changes.filter { selection.docIDs?.contains($0.id) ?? true }
                if selection.selector != nil {
                    let live = changes.filter { !$0.deleted }.map(\.id)
                    var bodies: [String: JSONObject] = [:]
                    for revision in try store.documents(withIDs: live) { bodies[revision.id] = revision.body }
                    changes = changes.filter { selection.includes(id: $0.id, body: bodies[$0.id]) }
                }
            }
            let rows = changes.map {
                ChangeRow(sequence: ReplicationSequence(.int($0.sequence)), id: $0.id, revisions: $0.revisions, deleted: $0.deleted)
            }
            // Sequences left after this page bound the changes left (superseded ones are skipped).
            let reachedEnd = batch.changes.count < limit
            let pending = reachedEnd ? 0 : Int(max(0, try store.lastSequence - batch.lastSequence))
            var page = ChangesPage(rows: rows, lastSequence: ReplicationSequence(.int(batch.lastSequence)), pending: pending)
            page.reachedEnd = reachedEnd
            return page
        }
    }

    /// The documents' leaves read from the store by ID (no walk of the feed); with a
    /// `selector`, only the documents whose winning revision it matches.
    public func currentLeaves(of ids: Set<String>, selector: DocumentSelector?) async throws -> [String: [RevisionID]] {
        try await onReader { store in
            var leaves: [String: [RevisionID]] = [:]
            for id in ids {
                let revisions = try store.leavesInTreeOrder(id: id)
                if !revisions.isEmpty { leaves[id] = revisions }
            }
            guard let selector else { return leaves }
            let selection = ChangesSelection(selector: selector)
            var bodies: [String: JSONObject] = [:]
            for revision in try store.documents(withIDs: Array(leaves.keys)) { bodies[revision.id] = revision.body }
            return leaves.filter { selection.includes(id: $0.key, body: bodies[$0.key]) }
        }
    }

    /// The store's own revision diff.
    public func revsDiff(_ revisions: [String: [RevisionID]]) async throws -> [String: RevsDiffEntry] {
        try await onReader { store in try store.revsDiff(revisions) }
    }

    /// Reads revisions with history; attachments unchanged since an `attachmentsSince`
    /// revision become stubs, large ones are deferred, the rest travel inline.
    public func fetchRevisions(_ requests: [RevisionFetch]) async throws -> FetchResult {
        try await onReader { store in
            var revisions: [ReplicatedRevision] = []
            var failures: [DocumentFailure] = []
            let wanted = requests.flatMap { request in request.revisions.map { (id: request.id, rev: $0) } }
            var found = try store.revisionsWithHistory(wanted).makeIterator()
            for request in requests {
                for rev in request.revisions {
                    guard let (stored, history) = found.next() ?? nil else {
                        failures.append(DocumentFailure(id: request.id, rev: rev, error: "not_found", reason: "missing"))
                        continue
                    }
                    let common = Set(request.attachmentsSince)
                    let knownGeneration = history.first(where: { common.contains($0) })?.generation ?? 0
                    var attachments: [String: ReplicatedAttachment] = [:]
                    for (name, info) in stored.attachments {
                        if info.revpos <= knownGeneration {
                            attachments[name] = .stub(info)
                        } else if info.length > deferAttachmentsLargerThan {
                            attachments[name] = .deferred(info, source: self.store)
                        } else {
                            guard let data = try store.attachmentData(digest: info.digest) else {
                                throw DocumentStoreError.missingAttachment(id: request.id, name: name, digest: info.digest)
                            }
                            attachments[name] = .data(contentType: info.contentType, data: data, revpos: info.revpos)
                        }
                    }
                    revisions.append(ReplicatedRevision(id: request.id, rev: rev, deleted: stored.deleted, body: stored.body,
                                                        history: history, attachments: attachments))
                }
            }
            return FetchResult(revisions: revisions, failures: failures)
        }
    }

    /// Inserts revisions with their ancestry in one transaction; if that fails, inserts them
    /// one by one so a single bad revision is reported without losing the others.
    public func writeRevisions(_ revisions: [ReplicatedRevision]) async throws -> [DocumentFailure] {
        if revisions.isEmpty { return [] }
        // One hop onto the writer: the revisions are made ready there and inserted at once.
        return try await onWriter { store in
            try store.insertRevisionsReportingRefusals(try revisions.map(readingDeferredBytes)).map {
                DocumentFailure(id: $0.id, rev: $0.rev, error: "refused", reason: $0.error.description)
            }
        }
    }

    /// `revision` with the bytes of its deferred attachments that this store lacks read from
    /// their source; the store takes the others, whose bytes it holds, as stubs.
    private func readingDeferredBytes(_ revision: ReplicatedRevision) throws -> ReplicatedRevision {
        var revision = revision
        for case let (name, .deferred(info, source)) in revision.attachments {
            if try (source as? DocumentStore) === store || store.hasAttachment(digest: info.digest) { continue }
            var data = Data(capacity: info.length)
            try source.streamAttachment(info, of: revision.id, named: name, chunkSize: 1 << 20) { data.append($0) }
            revision.attachments[name] = .data(contentType: info.contentType, data: data, revpos: info.revpos)
        }
        return revision
    }

    /// The store's local document.
    public func localDocument(id: String) async throws -> JSONObject? {
        try await onReader { store in try store.getLocal(id: id) }
    }

    /// Writes the store's local document.
    public func putLocalDocument(id: String, body: JSONObject) async throws {
        try await onWriter { store in try store.putLocal(id: id, body: body) }
    }

    /// One attachment's bytes.
    public func attachment(documentID: String, rev: RevisionID, name: String) async throws -> Data {
        try await onReader { store in
            guard let found = try store.attachment(id: documentID, rev: rev, name: name) else {
                throw DocumentStoreError.notFound(id: "\(documentID)/\(name)")
            }
            return found.data
        }
    }

    private func localSequence(_ sequence: ReplicationSequence?) throws -> Int64 {
        guard let sequence else { return 0 }
        if let number = sequence.value.intValue { return number }
        if let text = sequence.value.stringValue, let number = Int64(text) { return number }
        throw ReplicationError.store("sequence \(sequence) was not issued by this local store")
    }

    /// Runs store reads in the store's `DocumentStore.withReader(_:)`; a datastore error becomes
    /// `ReplicationError.store`.
    private func onReader<T: Sendable>(_ body: @escaping @Sendable (StoreReader) throws -> T) async throws -> T {
        try await storeErrorsMapped { try await store.withReader(body) }
    }

    /// Runs store writes in the store's `DocumentStore.withWriter(_:)`; a datastore error
    /// becomes `ReplicationError.store`.
    private func onWriter<T: Sendable>(_ body: @escaping @Sendable (StoreWriter) throws -> T) async throws -> T {
        try await storeErrorsMapped { try await store.withWriter(body) }
    }

    private func storeErrorsMapped<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DocumentStoreError {
            throw ReplicationError.store(error.description, cause: error)
        }
    }
}
