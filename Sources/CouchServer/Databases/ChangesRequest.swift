import HTTPTypes
import CouchProtocol
import DocumentStore
import Foundation
import DocumentFormat

/// The options of a `_changes` request, validated before any reply byte is sent.
struct ChangesRequest: Sendable {
    /// How the feed is sent: one reply, one reply after waiting, or rows as they come
    /// (one JSON line each, or Server-Sent Events for `eventsource`).
    enum Feed: String, Sendable { case normal, longpoll, continuous, eventsource }

    var feed: Feed
    /// Sequence to start after; `nil` means `now` (resolved against the store when serving).
    var since: Int64?
    var limit: Int?
    var allDocsStyle: Bool
    var includeDocs: Bool
    var conflicts: Bool
    /// Newest first (normal feed only), as clients use `descending=true&limit=1` for the tip.
    var descending: Bool
    /// The documents listed (`filter=_doc_ids` or `filter=_selector`), if filtered; a deleted
    /// document matches no selector, as in CouchDB.
    var selection: ChangesSelection?
    /// Newline interval while waiting, if the client asked for heartbeats.
    var heartbeat: Duration?
    /// Longest wait for longpoll/continuous feeds.
    var timeout: Duration

    /// The header an EventSource sends when it reconnects.
    static let lastEventIDHeader = HTTPField.Name("Last-Event-ID")!

    /// Reads the options from the query (and, for POST, the body); 400 when malformed.
    init(_ request: CouchRequest, maxTimeoutMilliseconds: Int) async throws {
        let query = request.query
        guard let feed = Feed(rawValue: query["feed"] ?? "normal") else {
            throw CouchError.badRequest("Supported feeds are normal, longpoll, continuous and eventsource")
        }
        self.feed = feed
        // An EventSource that reconnects names the last event it saw (`Last-Event-ID`, or
        // `last-event-id` in the query): the feed resumes after it, as CouchDB's does.
        let lastEventID = (query["last-event-id"] ?? (feed == .eventsource ? request.headers[Self.lastEventIDHeader] : nil))
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
        since = try Self.parseSequence(query["since"] ?? lastEventID ?? "0")
        limit = try query.int("limit")
        allDocsStyle = (query["style"] ?? "main_only") == "all_docs"
        includeDocs = try query.bool("include_docs")
        conflicts = try query.bool("conflicts")
        descending = try query.bool("descending")
        if query["filter"] == "_selector" {
            guard request.method == .post, !request.body.isEmpty,
                  let given = try await request.jsonObjectBody()["selector"] else {
                throw CouchError.badRequest("filter=_selector needs a POST body with a selector object")
            }
            do {
                selection = ChangesSelection(selector: try DocumentSelector(given))
            } catch let error as DocumentFormatError {
                throw CouchError(status: 400, error: "bad_request", reason: "Invalid selector: \(error)")
            }
        } else if let filter = query["filter"] {
            if filter == "_view" || filter.contains("/") { throw DesignFunction.filter.error }
            guard filter == "_doc_ids" else {
                throw CouchError(status: 400, error: "bad_request", reason: "Only the _doc_ids and _selector filters are supported")
            }
            var ids = try query.json("doc_ids")?.arrayValue?.compactMap(\.stringValue)
            if ids == nil, request.method == .post, !request.body.isEmpty {
                ids = try await request.jsonObjectBody()["doc_ids"]?.arrayValue?.compactMap(\.stringValue)
            }
            guard let ids else { throw CouchError.badRequest("filter=_doc_ids needs a doc_ids array") }
            selection = ChangesSelection(docIDs: Set(ids))
        }
        switch query["heartbeat"] {
        case nil, "false": heartbeat = nil
        case "true": heartbeat = .milliseconds(60_000)
        case let text?:
            guard let ms = WireNumber.count(text), ms > 0 else {
                throw CouchError(status: 400, error: "query_parse_error", reason: "Invalid heartbeat value: \"\(text)\"")
            }
            // Beyond the longest wait a heartbeat would never come; bounding it keeps every
            // deadline computed from it far from the clock's range.
            heartbeat = .milliseconds(min(max(ms, 100), max(maxTimeoutMilliseconds, 100)))
        }
        // As in CouchDB, a feed with heartbeats runs until the client goes away (a failed
        // heartbeat write ends it) or the server stops; otherwise it ends after `timeout`.
        if heartbeat != nil, feed != .normal {
            timeout = .seconds(24 * 3600)
        } else {
            let timeoutMs = try query.int("timeout") ?? 60_000
            timeout = .milliseconds(min(timeoutMs, maxTimeoutMilliseconds))
        }
    }

    /// Parses a `since` value: `now`, a number, or an opaque `"N-…"` sequence this server made.
    static func parseSequence(_ text: String) throws -> Int64? {
        if text == "now" { return nil }
        var trimmed = text
        if trimmed.hasPrefix("\""), trimmed.hasSuffix("\""), trimmed.count >= 2 {
            trimmed = String(trimmed.dropFirst().dropLast())
        }
        let digits = trimmed.prefix { $0.isNumber }
        guard let value = Int64(digits), value <= WireNumber.maximum, digits.count == trimmed.count || trimmed.dropFirst(digits.count).first == "-" else {
            throw CouchError(status: 400, error: "bad_request", reason: "Malformed sequence supplied in 'since' parameter.")
        }
        return value
    }

    /// Whether `change` passes the request's filter (`_doc_ids`, `_selector`), if any.
    func selects(_ change: Change, in store: some DocumentStoreReading) throws -> Bool {
        guard let selection else { return true }
        // The winner's body only when a selector needs it; a deleted document has none.
        let body = selection.selector == nil || change.deleted ? nil : try store.get(id: change.id)?.body
        return selection.includes(id: change.id, body: body)
    }
}
