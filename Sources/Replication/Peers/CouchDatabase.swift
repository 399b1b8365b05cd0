public import CouchProtocol
import DocumentStore
public import Foundation
public import Logging
import Synchronization
public import DocumentFormat
import HTTPSupport

/// A CouchDB (or Cloudant, or `recipes serve`) database over HTTP, as a replication peer.
///
/// The URL may carry `user:password@`; the password is used for authentication only and is
/// masked everywhere it could be shown (`description`, logs, errors).
public final class CouchDatabase: ReplicationPeer, CustomStringConvertible {
    /// The database URL (credentials kept apart).
    public let url: CouchURL
    let client: CouchHTTPClient
    private let logger: Logger
    private let bulkGetUnavailable = Mutex(false)
    /// The `_rev` of each `_local` document as last read or written, sent with the next write:
    /// CouchDB (and `recipes serve`) refuse an update of an existing local document without
    /// its current revision.
    private let localRevisions = Mutex<[String: JSONValue]>([:])

    /// Opens a remote database by URL (`http(s)://[user:password@]host[:port]/db`).
    public init(url text: String, options: CouchClientOptions = .init(),
                logger: Logger = Logger(label: "recipes.replication.http")) throws {
        url = try CouchURL(text)
        self.logger = logger
        client = CouchHTTPClient(url: url, options: options, logger: logger)
    }

    /// The URL without credentials.
    public var peerIdentity: String { url.description }

    /// The number of connections the client may open.
    public var preferredConcurrency: Int { max(1, client.options.maxConnections) }

    /// The URL with the password masked.
    public var description: String { url.maskedDescription }

    /// `GET /db`.
    public func databaseInfo() async throws -> DatabaseInfo {
        let target = client.databaseURL()
        let reply = try await client.sendJSON("GET", target, missingDatabaseOn404: true)
        return try shaped("GET", target) { try DatabaseInfo(DatabaseInfoReply(json: reply)) }
    }

    /// `PUT /db`; 412 (already exists) counts as success.
    public func createDatabase() async throws {
        let reply = try await client.send("PUT", client.databaseURL())
        if (200..<300).contains(reply.status) || reply.status == 412 {
            logger.info("created remote database \(url.description)")
            return
        }
        throw client.error(for: reply)
    }

    /// `GET /db/_changes?style=all_docs&since=…&limit=…`.
    public func changes(since: ReplicationSequence?, limit: Int, selection: ChangesSelection?) async throws -> ChangesPage {
        var query: [(String, String)] = [("feed", "normal"), ("style", "all_docs")]
        query.append(("since", since?.queryText ?? "0"))
        query.append(("limit", String(limit)))
        // Filters go in a POST body, as CouchDB's replicator sends them: `_selector` (with
        // the IDs folded in when both are given) or `_doc_ids`.
        var body: JSONValue?
        if let selector = selection?.combinedSelector {
            query.append(("filter", "_selector"))
            body = ["selector": selector]
        } else if let ids = selection?.docIDs {
            query.append(("filter", "_doc_ids"))
            body = ["doc_ids": .array(ids.sorted().map { .string($0) })]
        }
        let target = client.databaseURL(["_changes"], query: query)
        let reply: JSONValue
        if let body {
            reply = try await client.sendJSON("POST", target, body: JSONWriter.couchDB.data(body), missingDatabaseOn404: true)
        } else {
            reply = try await client.sendJSON("GET", target, missingDatabaseOn404: true)
        }
        return try shaped(body == nil ? "GET" : "POST", target) { try ChangesPage(ChangesResponse(json: reply)) }
    }

    /// `POST /db/_revs_diff`.
    public func revsDiff(_ revisions: [String: [RevisionID]]) async throws -> [String: RevsDiffEntry] {
        if revisions.isEmpty { return [:] }
        let target = client.databaseURL(["_revs_diff"])
        let body = JSONWriter.couchDB.data(RevsDiffMessage.Request(revisions: revisions).json)
        let reply = try await client.sendJSON("POST", target, body: body)
        return try shaped("POST", target) { try RevsDiffMessage.Response(json: reply).entries }
    }

    /// Reads revisions the way CouchDB's replicator does: `POST /db/_bulk_get?revs=true&
    /// attachments=false&latest=true` (JSON, attachments as stubs), then, for each document
    /// whose revisions have attachments the target lacks, `GET /db/{id}?revs=true&open_revs=[…]
    /// &latest=true&attachments=true&atts_since=[…]` as `multipart/mixed`, so attachment bytes
    /// arrive raw (no base64) and are held once. Revisions needing no more than
    /// `multipartAttachmentThreshold` bytes are fetched together in a second `_bulk_get` with
    /// `attachments=true` instead. A server without `_bulk_get` (404, 405, 400, 501) is asked
    /// per document with the `open_revs` request.
    public func fetchRevisions(_ requests: [RevisionFetch]) async throws -> FetchResult {
        if requests.isEmpty { return FetchResult(revisions: [], failures: []) }
        if !bulkGetUnavailable.withLock({ $0 }) {
            let target = client.databaseURL(["_bulk_get"], query: [("revs", "true"), ("attachments", "false"), ("latest", "true"), ("att_encoding_info", "true")])
            let reply = try await client.send("POST", target, body: Self.bulkGetBody(requests), contentType: "application/json")
            if (200..<300).contains(reply.status) {
                let value = try client.parse(reply)
                let listed = try shaped("POST", target) { try FetchResult(BulkGetMessage.Response(json: value)) }
                return try await fetchingAttachments(of: listed, requests: requests)
            }
            guard [400, 404, 405, 501].contains(reply.status) else { throw client.error(for: reply) }
            if reply.status == 404, case .databaseNotFound = client.error(for: reply) {
                throw ReplicationError.databaseNotFound(url: url.description)
            }
            logger.info("\(url.description) has no _bulk_get (\(reply.status)); fetching documents one by one")
            bulkGetUnavailable.withLock { $0 = true }
        }
        var revisions: [ReplicatedRevision] = []
        var failures: [DocumentFailure] = []
        for request in requests {
            let result = try await openRevisions(id: request.id, revisions: request.revisions,
                                                 attachmentsSince: request.attachmentsSince)
            revisions += result.revisions
            failures += result.failures
        }
        return FetchResult(revisions: revisions, failures: failures)
    }

    /// Completes `_bulk_get` revisions listed with attachment stubs: a revision with
    /// attachments changed after every `attachmentsSince` revision in its history is fetched
    /// again with their bytes (large ones per document as multipart, small ones in one more
    /// `_bulk_get`), and replaces the listed one.
    private func fetchingAttachments(of listed: FetchResult, requests: [RevisionFetch]) async throws -> FetchResult {
        var since: [String: Set<RevisionID>] = [:]
        for request in requests { since[request.id, default: []].formUnion(request.attachmentsSince) }
        var large: [String: [RevisionID]] = [:]
        var largeOrder: [String] = []
        var small: [String: [RevisionID]] = [:]
        var smallOrder: [String] = []
        var refetched: Set<String> = []
        for revision in listed.revisions {
            let missing = Self.missingAttachmentBytes(revision, since: since[revision.id] ?? [])
            guard let missing else { continue }
            refetched.insert("\(revision.id) \(revision.rev)")
            if missing > client.options.multipartAttachmentThreshold {
                if large[revision.id] == nil { largeOrder.append(revision.id) }
                large[revision.id, default: []].append(revision.rev)
            } else {
                if small[revision.id] == nil { smallOrder.append(revision.id) }
                small[revision.id, default: []].append(revision.rev)
            }
        }
        if refetched.isEmpty { return listed }
        var revisions = listed.revisions.filter { !refetched.contains("\($0.id) \($0.rev)") }
        var failures = listed.failures
        if !smallOrder.isEmpty {
            let inline = try await bulkGetInline(smallOrder.map {
                RevisionFetch(id: $0, revisions: small[$0]!, attachmentsSince: Array(since[$0] ?? []))
            })
            revisions += inline.revisions
            failures += inline.failures
        }
        for id in largeOrder {
            let fetched = try await openRevisions(id: id, revisions: large[id]!, attachmentsSince: Array(since[id] ?? []))
            revisions += fetched.revisions
            failures += fetched.failures
        }
        return FetchResult(revisions: revisions, failures: failures)
    }

    /// The attachment bytes a revision listed with stubs lacks on the target: stubs whose
    /// `revpos` is past the generation of the newest `since` revision in its history (all of
    /// them when none is); `nil` when it lacks none.
    static func missingAttachmentBytes(_ revision: ReplicatedRevision, since: Set<RevisionID>) -> Int? {
        let known = revision.history.first { since.contains($0) }?.generation ?? 0
        var total: Int?
        for case .stub(let info) in revision.attachments.values where info.revpos > known {
            // Stub lengths come from the remote: each is at most WireNumber.maximum, but a
            // revision may list many, so the sum saturates rather than overflows.
            let (sum, overflow) = (total ?? 0).addingReportingOverflow(max(0, info.length))
            total = overflow ? Int.max : sum
        }
        return total
    }

    /// `POST /db/_bulk_get?revs=true&attachments=true&latest=true`: revisions with their new
    /// attachments inline (base64), for the small ones.
    private func bulkGetInline(_ requests: [RevisionFetch]) async throws -> FetchResult {
        let target = client.databaseURL(["_bulk_get"], query: [("revs", "true"), ("attachments", "true"), ("latest", "true"), ("att_encoding_info", "true")])
        let value = try await client.sendJSON("POST", target, body: Self.bulkGetBody(requests))
        return try shaped("POST", target) { try FetchResult(BulkGetMessage.Response(json: value)) }
    }

    /// `{"docs": [{id, rev, atts_since?}, …]}`, one entry per wanted revision.
    private static func bulkGetBody(_ requests: [RevisionFetch]) -> Data {
        let docs = requests.flatMap { request in
            request.revisions.map { rev in
                BulkGetMessage.Request.Item(id: request.id, rev: rev.description,
                                            attachmentsSince: request.attachmentsSince.isEmpty ? nil : request.attachmentsSince)
            }
        }
        return JSONWriter.couchDB.data(BulkGetMessage.Request(docs: docs).json)
    }

    /// `GET /db/{id}?revs=true&open_revs=[…]&latest=true&attachments=true&atts_since=[…]` with
    /// `Accept: multipart/mixed`; a JSON reply (a server that ignores `Accept`) is read too.
    private func openRevisions(id: String, revisions: [RevisionID], attachmentsSince: [RevisionID]) async throws -> FetchResult {
        let openRevs = String(decoding: JSONWriter.couchDB.data(.array(revisions.map { .string($0.description) })), as: UTF8.self)
        var query: [(String, String)] = [("revs", "true"), ("open_revs", openRevs), ("latest", "true"), ("attachments", "true"),
                                          ("att_encoding_info", "true")]
        if !attachmentsSince.isEmpty {
            let sorted = attachmentsSince.sorted { $0.generation > $1.generation }
            query.append(("atts_since", String(decoding: JSONWriter.couchDB.data(.array(sorted.map { .string($0.description) })), as: UTF8.self)))
        }
        let reply = try await client.send("GET", client.databaseURL([CouchDocument.encodedPath(of: id)], query: query),
                                          accept: "multipart/mixed", throughFile: true)
        guard (200..<300).contains(reply.status) else { throw client.error(for: reply) }
        let contentType = reply.headers["content-type"] ?? "application/json"
        if contentType.lowercased().hasPrefix("multipart/") {
            return try shaped(reply.endpoint) {
                try FetchResult(OpenRevsMultipartReply(data: reply.body, contentType: contentType, documentID: id), documentID: id)
            }
        }
        let value = try client.parse(reply)
        return try shaped(reply.endpoint) { try FetchResult(OpenRevsReply(json: value, documentID: id), documentID: id) }
    }

    /// Writes revisions as they are: `POST /db/_bulk_docs` with `new_edits:false` for the
    /// batch, except revisions sending more than `multipartAttachmentThreshold` attachment
    /// bytes, which go one by one as `PUT /db/{id}?new_edits=false` with a `multipart/related`
    /// body streamed from a temporary file (raw bytes, never held whole), as CouchDB's
    /// replicator pushes documents with attachments.
    public func writeRevisions(_ revisions: [ReplicatedRevision]) async throws -> [DocumentFailure] {
        let threshold = client.options.multipartAttachmentThreshold
        let large = revisions.filter { $0.attachmentBytesToSend > threshold }
        var failures = try await writeBulk(large.isEmpty ? revisions : revisions.filter { $0.attachmentBytesToSend <= threshold })
        for revision in large {
            failures += try await putMultipart(revision)
        }
        return failures
    }

    /// `PUT /db/{id}?new_edits=false` with the revision as a `multipart/related` body; a
    /// refusal of this one document (400, 403, 409, 412, 413, 415) is returned as its failure.
    private func putMultipart(_ revision: ReplicatedRevision) async throws -> [DocumentFailure] {
        let upload = try MultipartUpload(revision)
        defer { upload.remove() }
        let target = client.databaseURL([CouchDocument.encodedPath(of: revision.id)], query: [("new_edits", "false")])
        let reply = try await client.send("PUT", target, bodyFile: upload.file, contentType: upload.contentType)
        if (200..<300).contains(reply.status) { return [] }
        switch reply.status {
        case 413:
            return [DocumentFailure(id: revision.id, rev: revision.rev, error: "too_large",
                                    reason: "the server refused the document with its \(upload.length)-byte upload as too large (413)")]
        case 400, 403, 409, 412, 415:
            let refusal = CouchError(status: reply.status, body: reply.body)
            return [DocumentFailure(id: revision.id, rev: revision.rev, error: refusal.error.isEmpty ? "http_\(reply.status)" : refusal.error,
                                    reason: refusal.reason.isEmpty ? "the server refused the document (\(reply.status))" : refusal.reason)]
        default:
            throw client.error(for: reply, missingDatabaseOn404: true)
        }
    }

    /// `POST /db/_bulk_docs` with `new_edits:false`; a 413 splits the batch in halves down to
    /// single documents, and a document too large on its own is reported as a failure.
    private func writeBulk(_ revisions: [ReplicatedRevision]) async throws -> [DocumentFailure] {
        if revisions.isEmpty { return [] }
        var body: [UInt8] = []
        body.reserveCapacity(revisions.count * 512 + revisions.reduce(0) { $0 + $1.attachmentBytesToSend * 4 / 3 })
        do {
            try BulkDocsRequest.write(newEdits: false, count: revisions.count, to: &body) { index, buffer in
                try revisions[index].appendDocument(attachmentsFollow: false, to: &buffer)
            }
        } catch {
            throw ReplicationError.store("\(error)", cause: error)
        }
        let reply = try await client.send("POST", client.databaseURL(["_bulk_docs"]), body: Data(body), contentType: "application/json")
        body = []
        if reply.status == 413 {
            if revisions.count == 1 {
                let revision = revisions[0]
                return [DocumentFailure(id: revision.id, rev: revision.rev, error: "too_large",
                                        reason: "the server refused the document as too large (413)")]
            }
            logger.info("\(url.description) refused a batch of \(revisions.count) as too large; splitting it")
            let middle = revisions.count / 2
            let first = try await writeBulk(Array(revisions[..<middle]))
            let second = try await writeBulk(Array(revisions[middle...]))
            return first + second
        }
        guard (200..<300).contains(reply.status) else { throw client.error(for: reply, missingDatabaseOn404: true) }
        let value = try client.parse(reply)
        return try shaped(reply.endpoint) {
            try BulkDocsReply(json: value).results.compactMap { result -> DocumentFailure? in
                if case .refused(let failure) = result { failure } else { nil }
            }
        }
    }

    /// `GET /db/_local/{id}`; `nil` on 404.
    public func localDocument(id: String) async throws -> JSONObject? {
        let reply = try await client.send("GET", client.databaseURL(["_local", PercentEncoding.pathSegment(id)]))
        if reply.status == 404 {
            if case .databaseNotFound = client.error(for: reply) { throw ReplicationError.databaseNotFound(url: url.description) }
            localRevisions.withLock { $0[id] = nil }
            return nil
        }
        guard (200..<300).contains(reply.status) else { throw client.error(for: reply) }
        guard var object = try client.parse(reply).objectValue else {
            throw ReplicationError.malformedReply(url: url.description, detail: "_local document is not an object")
        }
        let rev = object["_rev"]
        localRevisions.withLock { $0[id] = rev }
        object["_id"] = nil
        object["_rev"] = nil
        return object
    }

    /// `PUT /db/_local/{id}` with the `_rev` last read or written (none for a document not
    /// seen yet), as CouchDB requires for updates. On 409 the current `_rev` is read and the
    /// write retried, up to `maxRetries` times (at least once): besides another writer
    /// moving it on, a 409 comes whenever an earlier try was applied but its reply was lost
    /// (connection dropped, 5xx after the write) and the client resent it with the old `_rev`,
    /// which can happen on every try of one checkpoint.
    public func putLocalDocument(id: String, body: JSONObject) async throws {
        let target = client.databaseURL(["_local", PercentEncoding.pathSegment(id)])
        var attempt = 0
        var document = body
        document["_rev"] = localRevisions.withLock { $0[id] }
        while true {
            let reply = try await client.send("PUT", target, body: JSONWriter.couchDB.data(.object(document)), contentType: "application/json")
            if (200..<300).contains(reply.status) {
                // A reply without a revision is not fatal: the next write's 409 reads it anew.
                let rev = (try? client.parse(reply)).flatMap { try? DocumentWriteReply(json: $0) }.map { JSONValue.string($0.rev) }
                localRevisions.withLock { $0[id] = rev }
                return
            }
            if reply.status == 409, attempt < max(1, client.options.maxRetries) {
                attempt += 1
                let current = try await client.send("GET", target)
                document["_rev"] = (200..<300).contains(current.status) ? try client.parse(current).objectValue?["_rev"] : nil
                continue
            }
            throw client.error(for: reply)
        }
    }

    /// `GET /db/{id}/{name}?rev=…`.
    public func attachment(documentID: String, rev: RevisionID, name: String) async throws -> Data {
        let target = client.databaseURL([CouchDocument.encodedPath(of: documentID), PercentEncoding.pathSegment(name)],
                                        query: [("rev", rev.description)])
        let reply = try await client.send("GET", target, accept: "*/*")
        guard (200..<300).contains(reply.status) else { throw client.error(for: reply) }
        return reply.body
    }

    /// Reads a reply's shape with `body`; a reply of the wrong shape is `malformedReply`
    /// naming `endpoint` and what was wrong (for a multipart body, at which byte).
    private func shaped<T>(_ endpoint: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ReplyShapeError {
            throw ReplicationError.malformedReply(url: url.description, detail: "\(endpoint): \(error.description)")
        }
    }

    private func shaped<T>(_ method: String, _ target: URL, _ body: () throws -> T) throws -> T {
        try shaped(CouchHTTPClient.endpoint(method, target), body)
    }
}
