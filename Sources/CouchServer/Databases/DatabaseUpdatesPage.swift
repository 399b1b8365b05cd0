import CouchProtocol
import DocumentFormat
import DocumentStore

/// Rows of `GET /_db_updates`, read from the changes feed of `_global_changes`, and their
/// text as CouchDB 3.4.3 writes it.
///
/// Each change of a document `created:recipes` is the event `{"db_name":"recipes",
/// "type":"created","seq":…}`; a document whose ID has no `:` is passed over. The
/// `eventsource` feed is the exception: CouchDB sends it the `_global_changes` change rows as
/// they are (`{"seq":…,"id":"created:recipes","changes":[…]}`), and so does this server.
struct DatabaseUpdatesPage: Sendable {
    /// The changes read, in the order they are sent.
    var rows: [ChangesResponse.Row]
    /// The sequence the feed resumes after (`last_seq`).
    var lastSequence: Int64

    /// What separates two rows of a normal or longpoll reply (CouchDB writes `,\r\n` here,
    /// where `_changes` writes `,\n`).
    static let rowSeparator = ",\r\n"

    /// The events after `since`, oldest first, at most `limit` of them; with `raw`, every
    /// change row, counted alike (the `eventsource` feed).
    static func read(_ store: some DocumentStoreReading, since: Int64, limit: Int?, raw: Bool) throws -> DatabaseUpdatesPage {
        var rows = [ChangesResponse.Row]()
        let wanted = limit ?? Int.max
        let position = try store.walkChanges(since: since, batch: wanted == Int.max ? 1000 : min(1000, wanted + 1)) { change in
            guard rows.count < wanted else { return false }
            if raw || event(of: change.id) != nil { rows.append(row(change)) }
            return true
        }
        return DatabaseUpdatesPage(rows: rows, lastSequence: position)
    }

    /// Every event, newest first, cut to `limit`; `last_seq` is the oldest sequence sent (the
    /// newest of the feed when none is), as CouchDB answers `descending=true`.
    static func readDescending(_ store: some DocumentStoreReading, limit: Int?, raw: Bool) throws -> DatabaseUpdatesPage {
        var all = try read(store, since: 0, limit: nil, raw: raw).rows
        all.reverse()
        if let limit { all = Array(all.prefix(limit)) }
        let last = try all.last.flatMap { CouchResponder.storeSequence($0.sequence) } ?? store.lastSequence
        return DatabaseUpdatesPage(rows: all, lastSequence: last)
    }

    /// The event type and database name a `_global_changes` document ID holds (split at its
    /// first `:`), or `nil` when it holds none.
    static func event(of id: String) -> (type: Substring, database: Substring)? {
        guard let colon = id.firstIndex(of: ":") else { return nil }
        return (id[..<colon], id[id.index(after: colon)...])
    }

    private static func row(_ change: Change) -> ChangesResponse.Row {
        ChangesResponse.Row(sequence: .string(String(change.sequence)), id: change.id,
                            revisions: Array(change.revisions.prefix(1)), deleted: change.deleted)
    }

    /// `last_seq` as JSON.
    var lastSequenceJSON: JSONValue { .string(String(lastSequence)) }

    /// One event as CouchDB writes it, members in its order: `db_name`, `type`, `seq`.
    static func eventText(_ row: ChangesResponse.Row) -> String {
        guard let event = event(of: row.id) else { return "" }
        return "{\"db_name\":" + JSONWriter.couchDB.string(.string(String(event.database)))
            + ",\"type\":" + JSONWriter.couchDB.string(.string(String(event.type)))
            + ",\"seq\":" + JSONWriter.couchDB.string(row.sequence ?? .null) + "}"
    }

    /// The events of an `eventsource` feed for the rows: each the raw change row, members in
    /// CouchDB's order (`seq`, `id`, `changes`, `deleted`), with its sequence as the event's `id`.
    var eventSourceText: String {
        rows.map { row in
            let sequence = JSONWriter.couchDB.string(row.sequence ?? .null)
            let changes = JSONValue.array(row.revisions.map { ["rev": .string($0.description)] })
            return "data: {\"seq\":" + sequence + ",\"id\":" + JSONWriter.couchDB.string(.string(row.id))
                + ",\"changes\":" + JSONWriter.couchDB.string(changes) + (row.deleted ? ",\"deleted\":true}" : "}")
                + "\nid: " + sequence + "\n\n"
        }.joined()
    }

    /// The rows of a normal or longpoll reply, after ``ChangesResponse/opening``.
    var rowsText: String {
        rows.map(Self.eventText).joined(separator: Self.rowSeparator)
    }

    /// What ends a normal or longpoll reply: the closing bracket and `last_seq`, and the
    /// newline CouchDB ends every streamed reply with.
    var tail: String {
        "\n],\n\"last_seq\":" + JSONWriter.couchDB.string(lastSequenceJSON) + "}\n\n"
    }

    /// The whole reply of a normal feed.
    var text: String { ChangesResponse.opening + rowsText + tail }

    /// The lines of a continuous feed for the rows.
    var continuousLines: String {
        rows.map { Self.eventText($0) + "\n" }.joined()
    }

    /// The line that ends a continuous feed, and CouchDB's closing newline.
    var continuousEnd: String {
        "{\"last_seq\":" + JSONWriter.couchDB.string(lastSequenceJSON) + "}\n\n"
    }
}
