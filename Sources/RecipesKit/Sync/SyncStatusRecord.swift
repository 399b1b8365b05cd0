package import DocumentStore
import DocumentFormat

/// Per-machine sync state kept in the local document `_local/recipes-sync`: the last
/// report, and the store sequence up to which local changes are known to be on the remote
/// (so `status` can count pending changes).
public struct SyncStatusRecord: Sendable, Equatable, Codable {
    /// The last sync's report.
    public var lastSync: SyncReport?
    /// Local changes up to this sequence have been pushed (or came from the remote), except
    /// the documents in `refused`.
    public var pushedThrough: Int64
    /// The documents the last push and the last pull could not copy; they count as pending
    /// until a sync copies them.
    public var refused: [RefusedDocument]

    /// Makes a record.
    public init(lastSync: SyncReport?, pushedThrough: Int64, refused: [RefusedDocument] = []) {
        self.lastSync = lastSync
        self.pushedThrough = pushedThrough
        self.refused = refused
    }

    private enum CodingKeys: String, CodingKey { case lastSync, pushedThrough, refused }

    /// Reads a record; one written before refusals were kept has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        lastSync = try container.decodeIfPresent(SyncReport.self, forKey: .lastSync)
        pushedThrough = try container.decode(Int64.self, forKey: .pushedThrough)
        refused = try container.decodeIfPresent([RefusedDocument].self, forKey: .refused) ?? []
    }

    /// Replaces the refusals of one direction with `outstanding`, what its latest run left.
    package mutating func replaceRefusals(_ direction: RefusedDocument.Direction, with outstanding: [RefusedDocument]) {
        refused = refused.filter { $0.direction != direction } + outstanding
    }

    /// The local document's ID.
    public static let recordID = "recipes-sync"
}

extension SyncStatusRecord {
    /// The sync state saved in `store` (an empty one before its first sync).
    package static func stored(in store: DocumentStore) throws -> SyncStatusRecord {
        try LocalRecord.read(SyncStatusRecord.self, id: recordID, in: store)
            ?? SyncStatusRecord(lastSync: nil, pushedThrough: 0)
    }

    /// Saves this record as the sync state of `store`.
    package func write(to store: DocumentStore) throws {
        try LocalRecord.write(self, id: Self.recordID, in: store)
    }

    /// Documents changed in `store` since they were last known to be on the remote, and
    /// those the last push could not copy (each counted once).
    package static func pendingChangeCount(of store: DocumentStore) throws -> Int {
        let record = try stored(in: store)
        var count = try StoreInspection.changeCount(since: record.pushedThrough, in: store)
        for refused in record.refused where refused.direction == .push {
            // A document changed since is counted among the changes already.
            if (try store.get(id: refused.failure.id)?.sequence ?? 0) <= record.pushedThrough { count += 1 }
        }
        return count
    }
}
