import CouchProtocol
import DocumentStore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import DocumentFormat

/// `GET|POST /{db}/_changes`: normal, longpoll and continuous feeds, as CouchDB writes them.
extension CouchResponder {
    func changes(_ database: Database, _ request: CouchRequest) async throws -> Response {
        try Self.allow(request, [.get, .post])
        let options = try await ChangesRequest(request, maxTimeoutMilliseconds: state.configuration.maxLongpollTimeout)
        if options.feed == .normal, options.descending {
            return Self.changesReply(try await database.store.withReader { store in try Self.readChangesDescending(store, options: options) })
        }
        // Where the feed starts and its first page, from one snapshot.
        let (start, first) = try await database.store.withReader { store in
            let start = try options.since ?? store.lastSequence
            return (start, try Self.readChanges(store, since: start, options: options))
        }
        switch options.feed {
        case .normal:
            return Self.changesReply(first)
        case .longpoll where !first.results.isEmpty:
            return Self.changesReply(first)
        case .longpoll:
            let body = ResponseBody { writer in
                try await writer.write(ByteBuffer(string: ChangesResponse.opening))
                let page = try await waitForChanges(database, since: start, options: options, writer: &writer)
                let rows = page.results.map { JSONWriter.couchDB.string($0.json) }.joined(separator: ChangesResponse.rowSeparator)
                try await writer.write(ByteBuffer(string: rows + page.tail))
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: Self.jsonHeaders, body: body)
        case .continuous, .eventsource:
            let events = options.feed == .eventsource
            let body = ResponseBody { writer in
                var since = start
                var page = first
                let deadline = ContinuousClock.now.advanced(by: options.timeout)
                var sent = 0
                while true {
                    for row in page.results {
                        try await writer.write(ByteBuffer(string: events ? Self.event(row) : ChangesResponse.continuousLine(row)))
                    }
                    sent += page.results.count
                    since = Self.storeSequence(page.lastSequence) ?? since
                    if let limit = options.limit, sent >= limit { break }
                    if ContinuousClock.now >= deadline || feedMustEnd(database) { break }
                    var remaining = options
                    if let limit = options.limit { remaining.limit = limit - sent }
                    page = try await waitForChanges(database, since: since, options: remaining, writer: &writer, deadline: deadline)
                    if page.results.isEmpty { break }
                }
                if !events {
                    try await writer.write(ByteBuffer(string: ChangesResponse.continuousEnd(lastSequence: .string(String(since)), pending: 0)))
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: events ? Self.eventHeaders : Self.jsonHeaders, body: body)
        }
    }

    /// One row of an `eventsource` feed, as CouchDB writes it: the row as `data`, its
    /// sequence as JSON as the event's `id` (which a reconnecting EventSource sends back as
    /// `Last-Event-ID`).
    static func event(_ row: ChangesResponse.Row) -> String {
        let id = row.sequence.map { JSONWriter.couchDB.string($0) } ?? "null"
        return "data: " + JSONWriter.couchDB.string(row.json) + "\nid: " + id + "\n\n"
    }

    /// Waits (writing heartbeat newlines) until changes after `since` exist, the timeout
    /// passes, the server stops or the database is being deleted; returns what it then
    /// reads (no rows, ending at `since`, once the database is being deleted).
    private func waitForChanges(
        _ database: Database, since: Int64, options: ChangesRequest,
        writer: inout any ResponseBodyWriter, deadline given: ContinuousClock.Instant? = nil
    ) async throws -> ChangesResponse {
        let deadline = given ?? ContinuousClock.now.advanced(by: options.timeout)
        let page = try await waitForFeed(
            database, deadline: deadline, heartbeat: options.heartbeat.map { ($0, "\n") }, writer: &writer,
            found: { !$0.results.isEmpty }) { store in try Self.readChanges(store, since: since, options: options) }
        return page ?? ChangesResponse(results: [], lastSequence: .string(String(since)), pending: 0)
    }

    /// The whole normal-feed reply.
    private static func changesReply(_ page: ChangesResponse) -> Response {
        feedReply(page.text)
    }

    /// Reads the rows after `since`, honouring limit, style, doc-ID filter and include_docs.
    static func readChanges(_ store: some DocumentStoreReading, since: Int64, options: ChangesRequest) throws -> ChangesResponse {
        var rows = [ChangesResponse.Row]()
        let wanted = options.limit ?? Int.max
        var limited = false
        // Read no further than the one change past `limit` that tells whether more remain.
        let batch = wanted == Int.max ? 1000 : min(1000, wanted + 1)
        let position = try store.walkChanges(since: since, batch: batch, while: { change in
            if rows.count >= wanted {
                limited = true
                return false
            }
            if try options.selects(change, in: store) { rows.append(try row(for: change, store: store, options: options)) }
            return true
        })
        var pending = 0
        if limited, options.selection == nil {
            pending = try store.changeCount(since: position)
        } else if limited {
            try store.forEachChange(since: position, batch: 5000) { change in
                if try options.selects(change, in: store) { pending += 1 }
            }
        }
        return ChangesResponse(results: rows, lastSequence: .string(String(position)), pending: pending)
    }

    /// The whole feed newest first, cut to `limit`; `last_seq` is the oldest sequence sent,
    /// as CouchDB reports it for descending feeds.
    static func readChangesDescending(_ store: some DocumentStoreReading, options: ChangesRequest) throws -> ChangesResponse {
        var unlimited = options
        unlimited.limit = nil
        let all = try readChanges(store, since: 0, options: unlimited)
        var rows = Array(all.results.reversed())
        if let limit = options.limit { rows = Array(rows.prefix(limit)) }
        return ChangesResponse(results: rows, lastSequence: .string(String(storeSequence(rows.last?.sequence) ?? 0)), pending: 0)
    }

    private static func row(for change: Change, store: some DocumentStoreReading, options: ChangesRequest) throws -> ChangesResponse.Row {
        var row = ChangesResponse.Row(sequence: .string(String(change.sequence)), id: change.id,
                                      revisions: options.allDocsStyle ? change.revisions : Array(change.revisions.prefix(1)),
                                      deleted: change.deleted)
        if options.includeDocs {
            if let winner = try store.leafRevisions(id: change.id).first {
                var renderer = DocumentRenderer()
                renderer.conflicts = options.conflicts
                row.doc = .object(try renderer.render(winner, store: store).json)
            } else {
                row.doc = .null
            }
        }
        return row
    }
}
