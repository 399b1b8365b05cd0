/// Random version-4 UUIDs as text, for document IDs.
///
/// Foundation's `UUID()` on Linux opens the system's random device for every UUID, which
/// made fresh IDs a visible share of the time spent saving many new objects. These draw the
/// same 122 random bits from the system generator (the `getrandom` call, no file opened).
public enum RandomIdentifier {
    /// A random UUID in its canonical form, `XXXXXXXX-XXXX-4XXX-YXXX-XXXXXXXXXXXX`, uppercase
    /// as Foundation's `UUID().uuidString` writes it.
    public static func uuidString() -> String { format(dashes: true, digits: Hex.uppercaseDigits) }

    /// The same 128 bits as 32 lowercase hex digits without dashes, the form CouchDB uses
    /// for IDs it chooses itself.
    public static func compactHex() -> String { format(dashes: false, digits: Hex.lowercaseDigits) }

    private static func format(dashes: Bool, digits: [UInt8]) -> String {
        var generator = SystemRandomNumberGenerator()
        var high = generator.next() as UInt64
        var low = generator.next() as UInt64
        high = (high & ~0xF000) | 0x4000                        // version 4
        low = (low & ~(0xC000 << 48)) | (0x8000 << 48)          // RFC 4122 variant
        let count = dashes ? 36 : 32
        return String(unsafeUninitializedCapacity: count) { buffer in
            var position = 0
            for index in 0..<32 {
                if dashes, index == 8 || index == 12 || index == 16 || index == 20 {
                    buffer[position] = UInt8(ascii: "-")
                    position += 1
                }
                let word = index < 16 ? high : low
                let nibble = Int((word >> UInt64(60 - 4 * (index % 16))) & 0xF)
                buffer[position] = digits[nibble]
                position += 1
            }
            return position
        }
    }
}
