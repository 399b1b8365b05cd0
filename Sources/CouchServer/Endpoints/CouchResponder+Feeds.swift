import DocumentFormat
import DocumentStore
import HTTPTypes
import Hummingbird
import NIOCore

/// What the feeds (`_changes`, `_db_updates`) share: their headers, their whole replies, and
/// how an open feed waits for its database to change (woken by the database's notifier after
/// each write, sending heartbeats meanwhile, and ending when the server stops or the
/// database is being deleted).
extension CouchResponder {
    /// The headers of a JSON feed.
    static var jsonHeaders: HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "must-revalidate"
        return headers
    }

    /// The headers of an `eventsource` feed.
    static var eventHeaders: HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        return headers
    }

    /// A whole feed reply of JSON text, with its length.
    static func feedReply(_ text: String) -> Response {
        var headers = jsonHeaders
        headers[.contentLength] = String(text.utf8.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The store's sequence a sequence of this server's feed names: the server writes its
    /// sequences as CouchDB does, as strings (`"42"`).
    static func storeSequence(_ sequence: JSONValue?) -> Int64? {
        sequence?.stringValue.flatMap { Int64($0) }
    }

    /// Whether an open feed must end now: the server is stopping or the database is being
    /// deleted. The feed then finishes its reply (closing the JSON body, or the
    /// continuous feed's `last_seq` line), so clients never get a cut body.
    func feedMustEnd(_ database: Database) -> Bool {
        state.isStopping || database.lifecycle.isDeleting
    }

    /// Reads `database` with `read` until `found` accepts what it read, `deadline` passes,
    /// the server stops or the database is being deleted, writing `heartbeat.text` every
    /// `heartbeat.interval` meanwhile; returns the last read, or `nil` once the database is
    /// being deleted (nothing more is read from it then).
    func waitForFeed<Page: Sendable>(
        _ database: Database, deadline: ContinuousClock.Instant, heartbeat: (interval: Duration, text: String)?,
        writer: inout any ResponseBodyWriter, found: (Page) -> Bool,
        read: @escaping @Sendable (StoreReader) throws -> Page
    ) async throws -> Page? {
        let clock = ContinuousClock()
        var nextHeartbeat = heartbeat.map { clock.now.advanced(by: $0.interval) }
        while true {
            let page = try await database.lifecycle.withLeaseIfOpen {
                try await database.store.withReader { store in try read(store) }
            }
            guard let page else { return nil }
            if found(page) || clock.now >= deadline || feedMustEnd(database) { return page }
            var wake = min(deadline, clock.now.advanced(by: .milliseconds(500)))
            if let beat = nextHeartbeat { wake = min(wake, beat) }
            await database.notifier.wait(timeout: max(.zero, clock.now.duration(to: wake)))
            if let beat = nextHeartbeat, clock.now >= beat, let heartbeat {
                try await writer.write(ByteBuffer(string: heartbeat.text))
                nextHeartbeat = clock.now.advanced(by: heartbeat.interval)
            }
        }
    }
}
