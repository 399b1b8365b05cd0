package import Foundation

/// Order-preserving byte keys for JSON values: comparing two keys byte by byte gives CouchDB's
/// collation order (null < false < true < numbers < strings < arrays < objects), so SQLite
/// indexes over these keys sort and range-scan in that order.
///
/// Numbers compare as doubles; strings by their UTF-8 bytes (code-point order, not ICU's);
/// arrays element by element, shorter first; objects by their (key, value) pairs in key order.
package enum CollationKey {
    /// The key of `value`.
    package static func make(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16)
        append(value, to: &out)
        return out
    }

    /// The key of `value`, as `Data` for binding to SQLite.
    package static func data(_ value: JSONValue) -> Data { Data(make(value)) }

    /// Compares two values in collation order: negative, zero or positive.
    package static func compare(_ lhs: JSONValue, _ rhs: JSONValue) -> Int {
        compare(make(lhs), make(rhs))
    }

    /// Compares two keys byte by byte.
    package static func compare(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
        let count = min(lhs.count, rhs.count)
        for index in 0..<count where lhs[index] != rhs[index] {
            return lhs[index] < rhs[index] ? -1 : 1
        }
        return lhs.count == rhs.count ? 0 : (lhs.count < rhs.count ? -1 : 1)
    }

    private static func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(0x01)
        case .bool(let b): out.append(b ? 0x03 : 0x02)
        case .int(let i): appendNumber(Double(i), to: &out)
        case .double(let d): appendNumber(d, to: &out)
        case .string(let s): out.append(0x05); appendString(s, to: &out)
        case .array(let elements):
            out.append(0x06)
            for element in elements { append(element, to: &out) }
            out.append(0x00)
        case .object(let members):
            out.append(0x07)
            for key in CanonicalJSON.sortedKeys(members) {
                appendString(key, to: &out)
                append(members[key]!, to: &out)
            }
            out.append(0x00)
        }
    }

    private static func appendNumber(_ number: Double, to out: inout [UInt8]) {
        out.append(0x04)
        let normalized = number == 0 ? 0.0 : number   // -0 sorts with +0
        var bits = normalized.bitPattern
        bits = (bits & (1 << 63)) != 0 ? ~bits : bits | (1 << 63)
        for shift in stride(from: 56, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
    }

    /// UTF-8 bytes with 0x00 escaped as 0x00 0xFF, ended by 0x00 0x00, so a prefix sorts first.
    private static func appendString(_ string: String, to out: inout [UInt8]) {
        for byte in string.utf8 {
            out.append(byte)
            if byte == 0 { out.append(0xFF) }
        }
        out.append(0x00)
        out.append(0x00)
    }
}
