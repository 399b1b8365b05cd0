import Crypto
public import Foundation

/// Computes revision IDs the way this datastore makes them, so any layer (and any machine) can
/// predict the ID a write will get: the MD5 of the canonical JSON array
/// `[parent-or-null, deleted, body, {attachment name: digest}]`, one generation past the parent.
public enum RevisionHasher {
    /// The ID of the revision with this parent, deletion flag, body and attachment digests.
    /// - Throws: ``DocumentFormatError/invalidRevision(_:)`` when the parent is at
    ///   ``RevisionID/maximumGeneration`` and so can have no child.
    public static func revisionID(parent: RevisionID?, deleted: Bool, body: JSONObject,
                                  attachmentDigests: [String: String]) throws(DocumentFormatError) -> RevisionID {
        var bodyBytes: [UInt8] = []
        bodyBytes.reserveCapacity(256)
        CanonicalJSON.appendObject(body, to: &bodyBytes)
        return try revisionID(parent: parent, deleted: deleted, canonicalBody: bodyBytes,
                          attachmentDigests: attachmentDigests)
    }

    /// Same as the public form, for a body already in canonical bytes (spares a second encoding).
    package static func revisionID(parent: RevisionID?, deleted: Bool, canonicalBody: [UInt8],
                           attachmentDigests: [String: String]) throws(DocumentFormatError) -> RevisionID {
        let generation = try parent?.childGeneration() ?? 1
        var prefix: [UInt8] = [UInt8(ascii: "[")]
        if let parent {
            JSONWriter.appendString(parent.description, to: &prefix)
        } else {
            prefix.append(contentsOf: JSONWriter.nullBytes)
        }
        prefix.append(UInt8(ascii: ","))
        prefix.append(contentsOf: deleted ? JSONWriter.trueBytes : JSONWriter.falseBytes)
        prefix.append(UInt8(ascii: ","))
        var suffix: [UInt8] = [UInt8(ascii: ",")]
        CanonicalJSON.appendObject(attachmentDigests.mapValues { JSONValue.string($0) }, to: &suffix)
        suffix.append(UInt8(ascii: "]"))

        var md5 = Insecure.MD5()
        md5.update(data: prefix)
        md5.update(data: canonicalBody)
        md5.update(data: suffix)
        return RevisionID(generation: generation, hash: Hex.lowercase(md5.finalize()))
    }

    /// The attachment digest CouchDB uses: `md5-` and the base64 of the bytes' MD5.
    public static func attachmentDigest(_ data: Data) -> String {
        "md5-" + Data(Insecure.MD5.hash(data: data)).base64EncodedString()
    }
}
