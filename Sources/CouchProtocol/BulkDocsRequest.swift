public import DocumentFormat

/// The body of `POST /{db}/_bulk_docs`: `{"new_edits": bool, "docs": [document, …]}`. The
/// server reads it with ``init(json:maximumDocuments:)``; the replicator writes it with
/// ``write(newEdits:count:to:document:)``, which frames the documents it streams in, so a
/// batch with large inline attachments is encoded once, straight into the body.
public struct BulkDocsRequest: Sendable {
    /// `new_edits`: true (the default) saves each document as a new edit; false inserts
    /// revisions made elsewhere, with their ancestry, as a replicator does.
    public var newEdits: Bool
    /// The documents, in the request's order, each already checked as a document.
    public var docs: [CouchDocument]

    /// A request of `docs`.
    public init(newEdits: Bool = true, docs: [CouchDocument]) {
        self.newEdits = newEdits
        self.docs = docs
    }

    /// Reads a request body, refusing one CouchDB refuses (no `docs` array, an element that
    /// is not an object, a malformed document or ID) and one of more than
    /// `maximumDocuments` documents, with a 400 ``CouchError`` and before anything is written.
    public init(json: JSONObject, maximumDocuments: Int) throws(CouchError) {
        guard let docs = json["docs"]?.arrayValue else { throw CouchError.badRequest("POST body must include `docs` parameter.") }
        guard docs.count <= maximumDocuments else {
            throw CouchError.badRequest("Too many docs: \(docs.count); at most \(maximumDocuments) per request.")
        }
        switch json["new_edits"] {
        case nil, .null?: newEdits = true
        case .bool(let value)?: newEdits = value
        case let other?: throw CouchError.badRequest("`new_edits` must be true or false, not \(JSONWriter.couchDB.string(other))")
        }
        var incoming = [CouchDocument]()
        incoming.reserveCapacity(docs.count)
        for element in docs {
            guard let object = element.objectValue else { throw CouchError.badRequest("Document must be a JSON object") }
            let document = try CouchDocument(object)
            if let id = document.id { try CouchDocument.validate(id: id) }
            incoming.append(document)
        }
        self.docs = incoming
    }

    /// Writes a request of `count` documents to `buffer`, calling `document` to append the
    /// `index`th one (in CouchDB's document form, e.g. with ``CouchDocumentEncoder``) in its
    /// place; what `document` throws stops the write and is rethrown.
    public static func write(newEdits: Bool, count: Int, to buffer: inout [UInt8],
                             document: (_ index: Int, _ buffer: inout [UInt8]) throws -> Void) rethrows {
        buffer.append(contentsOf: (newEdits ? "{\"new_edits\":true,\"docs\":[" : "{\"new_edits\":false,\"docs\":[").utf8)
        for index in 0..<max(0, count) {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            try document(index, &buffer)
        }
        buffer.append(contentsOf: "]}".utf8)
    }
}
