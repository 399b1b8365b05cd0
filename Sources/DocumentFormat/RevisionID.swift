/// A document revision identifier, `<generation>-<hash>`, as CouchDB writes it.
///
/// Ordering follows CouchDB's winner rule among leaves of equal deletion state: the higher
/// generation first, then the greater hash as CouchDB stores it (32 hex digits as 16 bytes,
/// other hashes as text), so every replica, this store or CouchDB, picks the same winner.
public struct RevisionID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The revision's depth in its tree, starting at 1.
    public let generation: Int
    /// The opaque suffix after the dash (32 lowercase hex digits for revisions made here).
    public let hash: String

    /// The highest generation a revision may have: 2^53 − 1, the largest integer that
    /// JavaScript clients (PouchDB, CouchDB's Fauxton) hold exactly. Every generation parsed
    /// from text is within `1...maximumGeneration`, so it can always be compared and
    /// incremented without overflow, and a revision at the limit cannot get a child
    /// (``childGeneration()`` refuses it) instead of trapping.
    public static let maximumGeneration = 9_007_199_254_740_991

    /// Whether the generation lies in `1...maximumGeneration`. IDs made with
    /// ``init(generation:hash:)`` are not checked; the store checks them before writing.
    public var hasValidGeneration: Bool { (1...Self.maximumGeneration).contains(generation) }

    /// The generation a child of this revision gets, one past this one.
    /// - Throws: ``DocumentFormatError/invalidRevision(_:)`` when this revision is at
    ///   ``maximumGeneration`` (or outside the valid range), so no edit can overflow.
    public func childGeneration() throws(DocumentFormatError) -> Int {
        guard hasValidGeneration, generation < Self.maximumGeneration else {
            throw DocumentFormatError.invalidRevision(
                "revision \(self) is at generation \(generation); no revision can follow generation \(Self.maximumGeneration - 1)")
        }
        return generation + 1
    }

    /// Makes a revision ID from its parts.
    public init(generation: Int, hash: String) {
        self.generation = generation
        self.hash = hash
    }

    /// Parses `<generation>-<hash>`; `nil` when the text is not of that shape or the
    /// generation is outside `1...maximumGeneration`.
    public init?(_ text: String) {
        guard let dash = text.firstIndex(of: "-"),
              let generation = Int(text[text.startIndex..<dash]),
              (1...Self.maximumGeneration).contains(generation)
        else { return nil }
        let hash = String(text[text.index(after: dash)...])
        guard !hash.isEmpty else { return nil }
        self.init(generation: generation, hash: hash)
    }

    /// The `<generation>-<hash>` text form.
    public var description: String { "\(generation)-\(hash)" }

    /// CouchDB's order: generation, then the hash as CouchDB stores it, compared byte by
    /// byte (``storedHashBytes``), so a 32-hex-digit hash and another kind compare as they
    /// do in CouchDB's revision trees.
    public static func < (lhs: RevisionID, rhs: RevisionID) -> Bool {
        if lhs.generation != rhs.generation { return lhs.generation < rhs.generation }
        return lhs.storedHashBytes.lexicographicallyPrecedes(rhs.storedHashBytes)
    }

    /// The hash as CouchDB keeps it (`couch_doc:parse_revid`): 32 hex digits are the 16
    /// bytes they spell; any other hash is its UTF-8 bytes. CouchDB orders revisions of one
    /// generation by these bytes, so `2-ffff…` (16 bytes from 0xff) sorts after `2-zz` while
    /// a plain text comparison would put it first.
    public var storedHashBytes: [UInt8] {
        let utf8 = Array(hash.utf8)
        guard utf8.count == 32 else { return utf8 }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var index = 0
        while index < 32 {
            guard let high = Self.hexValue(utf8[index]), let low = Self.hexValue(utf8[index + 1]) else { return utf8 }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// The value of one hex digit (either case), `nil` for any other byte.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension RevisionID: Codable {
    /// Decodes from the text form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let rev = RevisionID(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "invalid revision ID \(text)")
        }
        self = rev
    }

    /// Encodes as the text form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
