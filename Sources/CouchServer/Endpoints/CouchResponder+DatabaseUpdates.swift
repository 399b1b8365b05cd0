import CouchProtocol
import DocumentStore
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /_db_updates`: the events of every database (created, updated, deleted), as
/// CouchDB 3 serves them from its `_global_changes` database, in the normal, longpoll,
/// continuous and eventsource feeds; for the server administrator only.
extension CouchResponder {
    /// Answers `GET /_db_updates`: 401 for anyone but the server administrator, 405 for other
    /// methods, CouchDB's 400s for bad parameters, 404 while `_global_changes` does not exist.
    func databaseUpdates(_ request: CouchRequest) async throws -> Response {
        try requireServerAdmin(request)
        if request.method != .head { try Self.allowOnly(request, [.get]) }
        let options = try DatabaseUpdatesRequest(request.query, maxTimeoutMilliseconds: state.configuration.maxLongpollTimeout)
        guard let database = try await state.registry.existingDatabase(GlobalChangesService.databaseName) else {
            throw CouchError.databaseMissing
        }
        let since = try options.startSequence()
        let raw = options.feed == .eventsource
        // Where the feed starts and its first page, from one snapshot.
        let (start, first) = try await database.lifecycle.withLease {
            try await database.store.withReader { store throws -> (Int64, DatabaseUpdatesPage) in
                if options.descending {
                    return (0, try DatabaseUpdatesPage.readDescending(store, limit: options.limit, raw: raw))
                }
                let start = try since ?? store.lastSequence
                return (start, try DatabaseUpdatesPage.read(store, since: start, limit: options.limit, raw: raw))
            }
        }
        // A descending feed lists what there is and ends, whichever feed was asked for.
        let waits = !options.descending && options.feed != .normal
        switch options.feed {
        case .normal:
            return Self.feedReply(first.text)
        case .longpoll where !first.rows.isEmpty || !waits:
            return Self.feedReply(first.text)
        case .continuous where !waits:
            return Self.feedReply(first.continuousLines + first.continuousEnd)
        case .eventsource where !waits:
            return Response(status: .ok, headers: Self.eventHeaders,
                            body: .init(byteBuffer: ByteBuffer(string: first.eventSourceText + "\n")))
        case .longpoll:
            let body = ResponseBody { writer in
                try await writer.write(ByteBuffer(string: ChangesResponse.opening))
                let deadline = ContinuousClock.now.advanced(by: options.timeout)
                let page = try await waitForUpdates(database, since: start, options: options, deadline: deadline, writer: &writer)
                try await writer.write(ByteBuffer(string: page.rowsText + page.tail))
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: Self.jsonHeaders, body: body)
        case .continuous, .eventsource:
            let body = ResponseBody { writer in
                var page = first
                var sent = 0
                let deadline = ContinuousClock.now.advanced(by: options.timeout)
                while true {
                    try await writer.write(ByteBuffer(string: raw ? page.eventSourceText : page.continuousLines))
                    sent += page.rows.count
                    if let limit = options.limit, sent >= limit { break }
                    if ContinuousClock.now >= deadline || feedMustEnd(database) { break }
                    var remaining = options
                    if let limit = options.limit { remaining.limit = limit - sent }
                    let next = try await waitForUpdates(database, since: page.lastSequence, options: remaining, deadline: deadline, writer: &writer)
                    page = DatabaseUpdatesPage(rows: next.rows, lastSequence: max(next.lastSequence, page.lastSequence))
                    if page.rows.isEmpty { break }
                }
                try await writer.write(ByteBuffer(string: raw ? "\n" : page.continuousEnd))
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: raw ? Self.eventHeaders : Self.jsonHeaders, body: body)
        }
    }

    /// Waits (sending heartbeats) until events after `since` exist, `deadline` passes, the
    /// server stops or `_global_changes` is being deleted; returns what it then reads.
    private func waitForUpdates(
        _ database: Database, since: Int64, options: DatabaseUpdatesRequest, deadline: ContinuousClock.Instant,
        writer: inout any ResponseBodyWriter
    ) async throws -> DatabaseUpdatesPage {
        let raw = options.feed == .eventsource
        // CouchDB's eventsource heartbeat is an event of its own; the other feeds get a newline.
        let heartbeat = options.heartbeat.map { ($0, raw ? "event: heartbeat\ndata: \n\n" : "\n") }
        let page = try await waitForFeed(database, deadline: deadline, heartbeat: heartbeat, writer: &writer,
                                         found: { !$0.rows.isEmpty }) { store in
            try DatabaseUpdatesPage.read(store, since: since, limit: options.limit, raw: raw)
        }
        return page ?? DatabaseUpdatesPage(rows: [], lastSequence: since)
    }
}
