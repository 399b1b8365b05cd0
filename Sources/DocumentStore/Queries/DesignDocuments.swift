import DocumentFormat
/// CouchDB's design documents (`_design/<name>`): stored and replicated like any other
/// document, but never part of query results or counts, as CouchDB's `_find` leaves them out.
enum DesignDocuments {
    /// The ID prefix of design documents.
    static let prefix = "_design/"

    /// Whether `id` names a design document.
    static func isDesign(_ id: String) -> Bool { id.hasPrefix(prefix) }

    /// An SQL condition on `d.doc_id` (the `docs` table as `d`) that leaves design documents
    /// out. `GLOB`, not `LIKE`: `_` is a wildcard for `LIKE`.
    static let excludedSQL = "d.doc_id NOT GLOB '_design/*'"
}
