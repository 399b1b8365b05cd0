import Foundation

/// A document's body as CouchDB hashes it for a new revision ID: the Erlang term jiffy makes
/// of the JSON received (members in the order sent, duplicates removed, `_` members other
/// than ``ReplicatorStateFields`` left out), and the order of the names in `_attachments`.
///
/// A `JSONObject` has no member order, so a server that wants CouchDB's IDs reads this from
/// the bytes it received (``init(json:)``); a body with no received text is hashed in the
/// order this package's writer sends it, keys sorted by their UTF-8 bytes
/// (``init(canonical:attachmentOrder:)``), which is the order CouchDB would receive the same
/// write in.
public struct RevisionBody: Sendable, Hashable {
    /// The body's term, `{[{Key, Value}, …]}`, without the version byte.
    package let term: [UInt8]
    /// The names of `_attachments` in the order received (after duplicates are removed);
    /// empty when the text had none.
    public let attachmentOrder: [String]

    /// Reads a document's JSON text: one object.
    /// - Throws: ``DocumentFormatError/invalidJSON(_:)`` when the text is not a JSON object
    ///   or holds what CouchDB refuses: a lone surrogate escape, a number out of range.
    public init(json: some Collection<UInt8>) throws(DocumentFormatError) {
        let result: Result<([UInt8], [String]), DocumentFormatError> = json.withContiguousStorageIfAvailable { buffer in
            Result { () throws(DocumentFormatError) in try Self.read(buffer) }
        } ?? Array(json).withUnsafeBufferPointer { buffer in
            Result { () throws(DocumentFormatError) in try Self.read(buffer) }
        }
        (term, attachmentOrder) = try result.get()
    }

    /// The body as this package writes it: canonical JSON (`CanonicalJSON`), keys in UTF-8
    /// byte order.
    /// - Throws: ``DocumentFormatError/invalidJSON(_:)`` for what CouchDB would refuse in
    ///   that text (a non-finite number cannot occur: the store refuses it first).
    /// `attachmentOrder`: the names CouchDB would list first (the rest follow sorted).
    public init(canonical body: JSONObject, attachmentOrder: [String] = []) throws(DocumentFormatError) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        CanonicalJSON.appendObject(body, to: &bytes)
        let read = try Self(json: bytes)
        term = read.term
        self.attachmentOrder = attachmentOrder
    }

    /// The received bodies of a `_bulk_docs` request's `docs`, in order: one per element,
    /// `nil` for an element that is not an object. `nil` when the text is not an object with
    /// a `docs` array (the request's own parsing reports that).
    /// - Throws: ``DocumentFormatError/invalidJSON(_:)`` when a document holds what CouchDB
    ///   refuses (see ``init(json:)``).
    public static func documents(inBulkDocs json: some Collection<UInt8>) throws(DocumentFormatError) -> [RevisionBody?]? {
        let read = { (buffer: UnsafeBufferPointer<UInt8>) -> Result<[RevisionBody?]?, DocumentFormatError> in
            var encoder = EJSONTermEncoder(buffer)
            guard let members = try? encoder.memberRanges(),
                  let docs = members.last(where: { $0.key.elementsEqual("docs".utf8) })
            else { return .success(nil) }
            var elements = EJSONTermEncoder(buffer, at: docs.value.lowerBound)
            guard let ranges = try? elements.elementRanges() else { return .success(nil) }
            var bodies: [RevisionBody?] = []
            for range in ranges {
                guard buffer[range.lowerBound] == UInt8(ascii: "{") else { bodies.append(nil); continue }
                do throws(DocumentFormatError) {
                    bodies.append(try RevisionBody(json: UnsafeBufferPointer(rebasing: buffer[range])))
                } catch {
                    return .failure(error)
                }
            }
            return .success(bodies)
        }
        return try (json.withContiguousStorageIfAvailable(read) ?? Array(json).withUnsafeBufferPointer(read)).get()
    }

    private static func read(_ buffer: UnsafeBufferPointer<UInt8>) throws(DocumentFormatError) -> ([UInt8], [String]) {
        var out: [UInt8] = []
        out.reserveCapacity(buffer.count + buffer.count / 2 + 16)
        var order: [String] = []
        var index = 0
        while index < buffer.count, [0x20, 0x09, 0x0A, 0x0D].contains(buffer[index]) { index += 1 }
        guard index < buffer.count, buffer[index] == UInt8(ascii: "{") else {
            throw DocumentFormatError.invalidJSON("a document must be a JSON object")
        }
        var encoder = EJSONTermEncoder(buffer, at: index)
        _ = try encoder.object(into: &out, skipping: isSpecial) { name, value, starts in
            guard name.elementsEqual("_attachments".utf8) else { return }
            order = starts.map { String(decoding: EJSONTermEncoder.key(at: $0, in: value), as: UTF8.self) }
        }
        try encoder.end()
        return (out, order)
    }

    /// Whether CouchDB takes a top-level member out of the body: a `_` name that is not one
    /// of the replicator's state fields.
    private static func isSpecial(_ key: ArraySlice<UInt8>) -> Bool {
        guard key.first == UInt8(ascii: "_") else { return false }
        return !ReplicatorStateFields.names.contains(String(decoding: key, as: UTF8.self))
    }
}
