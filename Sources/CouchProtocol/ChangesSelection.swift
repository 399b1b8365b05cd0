public import DocumentFormat

/// Which documents a changes feed lists: CouchDB's `_doc_ids` and `_selector` filters, the
/// one rule for both sides. A server applies it to the feed it serves, a local store to the
/// page it reads, and a client sends it as ``combinedSelector``.
public struct ChangesSelection: Sendable {
    /// Only these document IDs, if set.
    public var docIDs: Set<String>?
    /// Only documents whose winning revision matches, if set (a deleted document matches
    /// nothing, as with CouchDB's `_selector` filter).
    public var selector: DocumentSelector?

    /// Selects by IDs, by selector, or both (a document must pass both).
    public init(docIDs: Set<String>? = nil, selector: DocumentSelector? = nil) {
        self.docIDs = docIDs
        self.selector = selector
    }

    /// Whether the document `id`, with its winning `body` (nil when deleted), is selected.
    public func includes(id: String, body: JSONObject?) -> Bool {
        if let docIDs, !docIDs.contains(id) { return false }
        guard let selector else { return true }
        guard let body else { return false }
        return selector.matches(id: id, body: body)
    }

    /// The one selector a server gets when both IDs and a selector are given.
    public var combinedSelector: JSONValue? {
        guard let selector else { return nil }
        guard let docIDs else { return selector.json }
        return ["$and": [selector.json, ["_id": ["$in": .array(docIDs.sorted().map { .string($0) })]]]]
    }
}
