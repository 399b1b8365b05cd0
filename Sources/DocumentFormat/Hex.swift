/// Bytes written as hexadecimal digits, two a byte: the one formatter behind revision hashes,
/// JSON `\u00XX` escapes, replication and index IDs, password hashes and session cookies.
///
/// It writes through a table rather than `String(format: "%02x")`, which costs a format
/// parse per byte.
public enum Hex {
    /// The lowercase digits, by value.
    package static let lowercaseDigits: [UInt8] = Array("0123456789abcdef".utf8)
    /// The uppercase digits, by value.
    package static let uppercaseDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// `bytes` as lowercase hex (`[0x0f, 0xa0]` is `0fa0`).
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes { append(byte, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `byte` as two lowercase digits.
    package static func append(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(lowercaseDigits[Int(byte >> 4)])
        out.append(lowercaseDigits[Int(byte & 0x0F)])
    }
}
