import Crypto
public import Foundation

/// Computes revision IDs as CouchDB 3.4.3 does (`couch_db:new_revid/1`), so the same write made
/// on CouchDB and here gets the same ID: the MD5 of the Erlang external term encoding
/// (`term_to_binary(…, [{minor_version, 1}])`) of `[Deleted, OldStart, OldRev, Body, Atts]`,
/// one generation past the parent.
///
/// - `Deleted`: the atom `true` or `false`.
/// - `OldStart`: the parent's generation, `0` without a parent.
/// - `OldRev`: the parent's hash as a binary, its 16 bytes when it is 32 hex digits (else its
///   text); the integer `0` without a parent.
/// - `Body`: the body as jiffy reads it (``RevisionBody``), `_` members left out.
/// - `Atts`: `{Name, ContentType, MD5}` binaries for each attachment, in the reverse of the
///   order the document lists them (CouchDB builds the list with a fold). The MD5 is of the
///   bytes as CouchDB stores them: compressed for compressible types
///   (``CompressedAttachmentDigest``), which callers put in the digests they pass.
///
/// Revisions already stored keep the IDs they were made with; only new ones use this hash.
public enum RevisionHasher {
    /// The ID of the revision with this parent, deletion flag, body and attachments. The
    /// attachments are taken in `body`'s ``RevisionBody/attachmentOrder``, then any others in
    /// UTF-8 byte order of their names.
    ///
    /// `recreation`: the revision recreates a deleted document (a create on top of its
    /// tombstone). CouchDB computes that ID in its updater, where the attachments are already
    /// in their on-disk form and each reads as `{undefined, undefined, undefined}`.
    /// - Throws: ``DocumentFormatError/invalidRevision(_:)`` when the parent is at
    ///   ``RevisionID/maximumGeneration`` and so can have no child.
    public static func revisionID(parent: RevisionID?, deleted: Bool, body: RevisionBody,
                                  attachments: [String: AttachmentInfo],
                                  recreation: Bool = false) throws(DocumentFormatError) -> RevisionID {
        let generation = try parent?.childGeneration() ?? 1
        var head: [UInt8] = [ErlangTerm.version]
        ErlangTerm.appendListHeader(count: 5, to: &head)
        ErlangTerm.appendBool(deleted, to: &head)
        if let parent {
            ErlangTerm.appendInteger(Int64(parent.generation), to: &head)
            ErlangTerm.appendBinary(revisionBytes(parent.hash), to: &head)
        } else {
            ErlangTerm.appendInteger(0, to: &head)
            ErlangTerm.appendInteger(0, to: &head)
        }
        var tail: [UInt8] = []
        let names = attachmentOrder(of: attachments, listed: body.attachmentOrder)
        if names.isEmpty {
            ErlangTerm.appendEmptyList(to: &tail)
        } else {
            ErlangTerm.appendListHeader(count: names.count, to: &tail)
            for name in names.reversed() {
                if recreation {
                    ErlangTerm.appendTupleHeader(arity: 3, to: &tail)
                    for _ in 0..<3 { ErlangTerm.appendAtom("undefined", to: &tail) }
                    continue
                }
                let info = attachments[name]!
                ErlangTerm.appendTupleHeader(arity: 3, to: &tail)
                ErlangTerm.appendBinary(Array(name.utf8), to: &tail)
                ErlangTerm.appendBinary(Array(info.contentType.utf8), to: &tail)
                ErlangTerm.appendBinary(md5Bytes(info.digest), to: &tail)
            }
            ErlangTerm.appendEmptyList(to: &tail)
        }
        ErlangTerm.appendEmptyList(to: &tail)

        var md5 = Insecure.MD5()
        md5.update(data: head)
        md5.update(data: body.term)
        md5.update(data: tail)
        return RevisionID(generation: generation, hash: Hex.lowercase(md5.finalize()))
    }

    /// The ID of a revision whose body has no received text: hashed in canonical order
    /// (``RevisionBody/init(canonical:attachmentOrder:)``).
    /// - Throws: ``DocumentFormatError`` when the parent can have no child or the body holds
    ///   a number CouchDB refuses.
    public static func revisionID(parent: RevisionID?, deleted: Bool, body: JSONObject,
                                  attachments: [String: AttachmentInfo]) throws(DocumentFormatError) -> RevisionID {
        try revisionID(parent: parent, deleted: deleted, body: RevisionBody(canonical: body), attachments: attachments)
    }

    /// The attachment digest CouchDB uses: `md5-` and the base64 of the bytes' MD5.
    public static func attachmentDigest(_ data: Data) -> String {
        "md5-" + Data(Insecure.MD5.hash(data: data)).base64EncodedString()
    }

    /// The order a revision lists its attachments in, which its ID is hashed in: the names
    /// in `listed` order first (those present, once each), then the rest in UTF-8 byte order.
    public static func attachmentOrder(of attachments: [String: AttachmentInfo], listed: [String]) -> [String] {
        guard !attachments.isEmpty else { return [] }
        var names: [String] = []
        names.reserveCapacity(attachments.count)
        var placed = Set<String>()
        for name in listed where attachments[name] != nil && placed.insert(name).inserted {
            names.append(name)
        }
        names.append(contentsOf: attachments.keys.filter { !placed.contains($0) }.sorted(by: JSONWriter.utf8Precedes))
        return names
    }

    /// CouchDB's `parse_revid`: 32 hex digits are the 16 bytes they spell; anything else is
    /// its own text.
    private static func revisionBytes(_ hash: String) -> [UInt8] {
        let utf8 = Array(hash.utf8)
        guard utf8.count == 32 else { return utf8 }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var high: UInt8 = 0
        for (offset, byte) in utf8.enumerated() {
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
            default: return utf8
            }
            if offset % 2 == 0 { high = nibble << 4 } else { bytes.append(high | nibble) }
        }
        return bytes
    }

    /// The 16 bytes of an `md5-<base64>` digest; another digest's text as it is.
    private static func md5Bytes(_ digest: String) -> [UInt8] {
        if digest.hasPrefix("md5-"), let data = Data(base64Encoded: String(digest.dropFirst(4))), data.count == 16 {
            return Array(data)
        }
        return Array(digest.utf8)
    }
}
