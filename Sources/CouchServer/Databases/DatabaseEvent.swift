/// What happened to a database, as CouchDB's `_global_changes` database and
/// `GET /_db_updates` name it.
enum DatabaseEvent: String, Sendable {
    /// The database was created.
    case created
    /// A document of the database was written (created, updated, deleted or purged).
    case updated
    /// The database was deleted.
    case deleted

    /// The `_global_changes` document ID that records this event for the database `name`:
    /// `updated:recipes`, as CouchDB writes it.
    func documentID(of name: String) -> String {
        rawValue + ":" + name
    }
}
