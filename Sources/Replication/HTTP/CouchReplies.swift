public import CouchProtocol
public import DocumentStore
import Foundation
public import DocumentFormat

/// Readers for the JSON replies of CouchDB's replication endpoints, shaped after real
/// CouchDB 3.4.3 traffic. Each throws `CouchReplies.ShapeError` when a reply is not what the
/// endpoint documents, so a confused server can never half-apply a batch.
public enum CouchReplies {
    /// A reply that parsed as JSON but does not have the documented shape (the wire layer's
    /// own error, under the name the readers here have always used).
    public typealias ShapeError = ReplyShapeError

    /// `GET /db`: `update_seq` (opaque) and `doc_count`.
    public static func databaseInfo(_ reply: JSONValue) throws -> DatabaseInfo {
        guard let object = reply.objectValue, let seq = object["update_seq"], !seq.isNull else {
            throw ShapeError("database info without update_seq")
        }
        // CouchDB 3 reports the database's creation time here; "0" (and older servers'
        // process start times are no better) says nothing about the database's identity.
        let instance = object["instance_start_time"]?.stringValue.flatMap { $0.isEmpty || $0 == "0" ? nil : $0 }
        return DatabaseInfo(updateSequence: ReplicationSequence(seq),
                            documentCount: try count(object["doc_count"], field: "doc_count", of: "database info"),
                            instance: instance)
    }

    /// `GET /db/_changes?style=all_docs`: rows with opaque `seq`, `id`, `changes[].rev`,
    /// `deleted`; `last_seq`; optional `pending` (read by the one `ChangesResponse`).
    public static func changes(_ reply: JSONValue) throws -> ChangesPage {
        let response = try ChangesResponse(json: reply)
        let rows = response.results.map { row in
            ChangeRow(sequence: row.sequence.map(ReplicationSequence.init), id: row.id, revisions: row.revisions, deleted: row.deleted)
        }
        return ChangesPage(rows: rows, lastSequence: ReplicationSequence(response.lastSequence), pending: response.pending)
    }

    /// `POST /db/_bulk_get` as JSON: `results[].docs[]` each `{ok: doc}` or `{error: {...}}`.
    public static func bulkGet(_ reply: JSONValue) throws -> FetchResult {
        guard let object = reply.objectValue, let results = object["results"]?.arrayValue else {
            throw ShapeError("bulk_get reply without a results array")
        }
        var revisions: [TransferRevision] = []
        var failures: [DocumentFailure] = []
        for result in results {
            guard let entry = result.objectValue, let docs = entry["docs"]?.arrayValue else {
                throw ShapeError("bulk_get result without docs")
            }
            let id = entry["id"]?.stringValue ?? "?"
            for doc in docs {
                let (revision, failure) = try openRevsEntry(doc, documentID: id)
                if let revision { revisions.append(revision) }
                if let failure { failures.append(failure) }
            }
        }
        return FetchResult(revisions: revisions, failures: failures)
    }

    /// `GET /db/{id}?open_revs=[…]` with `Accept: application/json`: an array of
    /// `{ok: doc}` or `{missing: rev}`.
    public static func openRevs(_ reply: JSONValue, documentID: String) throws -> FetchResult {
        guard let entries = reply.arrayValue else { throw ShapeError("open_revs reply is not an array") }
        var revisions: [TransferRevision] = []
        var failures: [DocumentFailure] = []
        for element in entries {
            let (revision, failure) = try openRevsEntry(element, documentID: documentID)
            if let revision { revisions.append(revision) }
            if let failure { failures.append(failure) }
        }
        return FetchResult(revisions: revisions, failures: failures)
    }

    static func openRevsEntry(_ element: JSONValue, documentID: String) throws -> (TransferRevision?, DocumentFailure?) {
        guard let entry = element.objectValue else { throw ShapeError("revision entry of \(documentID) is not an object") }
        if let ok = entry["ok"] {
            guard let doc = ok.objectValue else { throw ShapeError("revision of \(documentID) is not an object") }
            do throws(CouchError) {
                return (try TransferRevision(CouchDocument(doc)), nil)
            } catch {
                throw ShapeError("document \(doc["_id"]?.stringValue ?? documentID): \(error.reason)")
            }
        }
        if let missing = entry["missing"]?.stringValue {
            return (nil, DocumentFailure(id: documentID, rev: RevisionID(missing), error: "not_found", reason: "missing"))
        }
        if let error = entry["error"]?.objectValue {
            return (nil, DocumentFailure(id: error["id"]?.stringValue ?? documentID,
                                         rev: error["rev"]?.stringValue.flatMap(RevisionID.init),
                                         error: error["error"]?.stringValue ?? "error",
                                         reason: error["reason"]?.stringValue ?? ""))
        }
        throw ShapeError("revision entry of \(documentID) has neither ok, missing nor error")
    }

    /// An optional count from a reply, held to `0...WireNumber.maximum` so the replicator's
    /// sums of counts cannot overflow; a `ShapeError` naming the field otherwise.
    static func count(_ value: JSONValue?, field: String, of reply: String) throws -> Int? {
        guard let value, !value.isNull else { return nil }
        guard let count = WireNumber.count(value) else {
            throw ShapeError("\(reply) field '\(field)' is \(JSONWriter.couchDB.string(value)), not an integer from 0 to \(WireNumber.maximum)")
        }
        return count
    }

}
