/// What a request without valid credentials may do.
///
/// Whatever the setting, `GET /`, `GET /_up` and `/_session` (to log in and out) answer
/// everyone, as in CouchDB 3.
public enum AnonymousAccess: Sendable, Equatable {
    /// Nothing else: every other request needs the administrator (CouchDB 3's default).
    case none
    /// Reads: GET and HEAD, and the POSTs that only read (`_all_docs`, `_find`, `_explain`,
    /// `_bulk_get`, `_revs_diff`, `_changes`, `_ensure_full_commit`).
    case reads
    /// Everything, writes included (CouchDB's old "admin party").
    case all
}
