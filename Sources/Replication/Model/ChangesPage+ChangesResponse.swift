import CouchProtocol
import DocumentStore

/// A page of a remote changes feed, from the `_changes` message.
extension ChangesPage {
    /// The page `response` says: its rows with their opaque sequences, `last_seq` and
    /// `pending`.
    init(_ response: ChangesResponse) {
        let rows = response.results.map { row in
            ChangeRow(sequence: row.sequence.map(ReplicationSequence.init), id: row.id, revisions: row.revisions, deleted: row.deleted)
        }
        self.init(rows: rows, lastSequence: ReplicationSequence(response.lastSequence), pending: response.pending)
    }
}
