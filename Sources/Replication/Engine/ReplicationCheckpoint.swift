import DocumentStore
import Foundation
import DocumentFormat

/// The checkpoint document a replication keeps in `_local/<replication-id>` on both sides,
/// in CouchDB's layout (`session_id`, `source_last_seq`, `history`), and the rule that picks
/// where a new run starts.
struct ReplicationCheckpoint {
    /// Entries kept in `history`.
    static let historyLimit = 50

    /// Body member naming the source database's instance the checkpoint was recorded
    /// against (``DatabaseInfo/instance``).
    static let sourceInstanceKey = "source_instance"

    /// The sequence to resume from, given the checkpoints read from source and target and
    /// the source database's instance as it is now; `nil` means from the start.
    ///
    /// As CouchDB's replicator decides it: both copies must exist and agree, on the same
    /// session (then its `source_last_seq`) or else on the newest history entry they share
    /// (its `recorded_seq`). A checkpoint recorded against another instance of the source
    /// database (deleted and recreated, or replaced) is never trusted. When one side could
    /// not store its copy, the other side's copy says so (`peer_refused_checkpoint`) and is
    /// trusted alone only if it names the source instance it was recorded against and that
    /// instance is still the source's; a lone copy without that mark means the other copy
    /// went away (its database was recreated), and the run starts from the start.
    static func startSequence(source: JSONObject?, target: JSONObject?, sourceInstance: String?) -> ReplicationSequence? {
        for side in [source, target] {
            guard let side, let recorded = side[sourceInstanceKey]?.stringValue else { continue }
            if recorded != sourceInstance { return nil }
        }
        if let source, let target {
            if let session = source["session_id"]?.stringValue, session == target["session_id"]?.stringValue,
               let seq = source["source_last_seq"], !seq.isNull {
                return ReplicationSequence(seq)
            }
            let targetEntries = Self.historyBySession(target)
            for entry in source["history"]?.arrayValue ?? [] {
                guard let object = entry.objectValue, let session = object["session_id"]?.stringValue,
                      let seq = object["recorded_seq"], !seq.isNull,
                      targetEntries[session] != nil else { continue }
                return ReplicationSequence(seq)
            }
            return nil
        }
        guard let sourceInstance else { return nil }
        for side in [source, target] {
            if let side, side["peer_refused_checkpoint"]?.boolValue == true,
               side[sourceInstanceKey]?.stringValue == sourceInstance,
               let seq = side["source_last_seq"], !seq.isNull {
                return ReplicationSequence(seq)
            }
        }
        return nil
    }

    /// Body member listing the documents not copied yet because a side refused them or could
    /// not supply them (`[{"id", "rev", "error", "reason"}]`): the checkpoint moved past
    /// them, so the next run offers them again from here (CouchDB keeps any member of a
    /// `_local` document, so a server stores it as it is).
    static let refusedKey = "refused"

    /// The most refusals a checkpoint lists. A run with more stops moving its checkpoint, so
    /// the next run reads those changes again rather than forgetting any.
    static let refusalLimit = 10_000

    /// The refusals both copies list (either copy may be missing or older), one per document.
    /// Entries that are not well-formed are skipped: the copies may come from a remote.
    static func refusals(source: JSONObject?, target: JSONObject?) -> [String: DocumentFailure] {
        var refusals: [String: DocumentFailure] = [:]
        for side in [target, source] {
            for entry in side?[refusedKey]?.arrayValue?.prefix(refusalLimit) ?? [] {
                guard let object = entry.objectValue, let id = object["id"]?.stringValue, !id.isEmpty,
                      refusals[id] == nil else { continue }
                refusals[id] = DocumentFailure(json: object, id: id, error: "refused")
            }
        }
        return refusals
    }

    /// A checkpoint's history entries by session ID.
    private static func historyBySession(_ checkpoint: JSONObject) -> [String: JSONObject] {
        var entries: [String: JSONObject] = [:]
        for entry in checkpoint["history"]?.arrayValue ?? [] {
            guard let object = entry.objectValue, let session = object["session_id"]?.stringValue,
                  entries[session] == nil else { continue }
            entries[session] = object
        }
        return entries
    }

    /// The checkpoint body after a batch.
    static func body(sessionID: String, startTime: Date, startSequence: ReplicationSequence?,
                     recorded: ReplicationSequence, progress: ReplicationProgress, previous: JSONObject?,
                     peerRefused: Bool, sourceInstance: String?, refusals: [String: DocumentFailure] = [:]) -> JSONObject {
        let entry: JSONObject = [
            "session_id": .string(sessionID),
            "start_time": .string(httpDate(startTime)),
            "end_time": .string(httpDate(Date())),
            "start_last_seq": startSequence?.value ?? .int(0),
            "end_last_seq": recorded.value,
            "recorded_seq": recorded.value,
            "missing_checked": .int(Int64(progress.changesProcessed)),
            "docs_read": .int(Int64(progress.docsRead)),
            "docs_written": .int(Int64(progress.docsWritten)),
            "doc_write_failures": .int(Int64(progress.docsFailed)),
        ]
        var history = (previous?["history"]?.arrayValue ?? []).filter {
            $0.objectValue?["session_id"]?.stringValue != sessionID
        }
        history.insert(.object(entry), at: 0)
        if history.count > historyLimit { history.removeLast(history.count - historyLimit) }
        var body: JSONObject = [
            "session_id": .string(sessionID),
            "source_last_seq": recorded.value,
            "replication_id_version": .int(1),
            "replicator": .string("recipes/\(UserAgent.version)"),
            "history": .array(history),
        ]
        if peerRefused { body["peer_refused_checkpoint"] = .bool(true) }
        if let sourceInstance { body[sourceInstanceKey] = .string(sourceInstance) }
        if !refusals.isEmpty {
            body[refusedKey] = .array(refusals.keys.sorted().compactMap { refusals[$0]?.json })
        }
        return body
    }

    private static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
