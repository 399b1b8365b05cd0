import Foundation

/// The canonical JSON text used for revision hashes and stored bodies: object keys sorted by
/// their UTF-8 bytes, no whitespace, strings escaped minimally, numbers in Swift's shortest
/// round-trip form. The same value gives the same bytes on every machine.
public enum CanonicalJSON {
    /// Encodes a value canonically. Non-finite doubles, which JSON cannot express, encode as
    /// `null` (the store refuses them on write).
    public static func encode(_ value: JSONValue) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        _ = append(value, to: &out)
        return Data(out)
    }

    /// Appends the canonical encoding of `value`; returns `false` if it held a non-finite
    /// double (encoded as `null`).
    @discardableResult
    static func append(_ value: JSONValue, to out: inout [UInt8]) -> Bool {
        switch value {
        case .null:
            out.append(contentsOf: nullBytes)
            return true
        case .bool(let b):
            out.append(contentsOf: b ? trueBytes : falseBytes)
            return true
        case .int(let i):
            appendInteger(i, to: &out)
            return true
        case .double(let d):
            guard d.isFinite else {
                out.append(contentsOf: nullBytes)
                return false
            }
            out.append(contentsOf: d.description.utf8)
            return true
        case .string(let s):
            appendString(s, to: &out)
            return true
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            var valid = true
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if !append(element, to: &out) { valid = false }
            }
            out.append(UInt8(ascii: "]"))
            return valid
        case .object(let members):
            return appendObject(members, to: &out)
        }
    }

    /// Appends an object with its keys in UTF-8 byte order; `false` if it held a non-finite double.
    @discardableResult
    static func appendObject(_ members: JSONObject, to out: inout [UInt8]) -> Bool {
        out.append(UInt8(ascii: "{"))
        var valid = true
        var first = true
        for key in sortedKeys(members) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            if !append(members[key]!, to: &out) { valid = false }
        }
        out.append(UInt8(ascii: "}"))
        return valid
    }

    /// Keys in UTF-8 byte order, the order every replica agrees on.
    static func sortedKeys(_ members: JSONObject) -> [String] {
        members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value >= 0 && value < 10 {
            out.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        out.append(contentsOf: String(value).utf8)
    }

    static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(byte)
                case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(byte)
                case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
                case 0x08: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "f"))
                case 0..<0x20:
                    out.append(contentsOf: Array("\\u00".utf8))
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0x0F)])
                default: out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    static let nullBytes: [UInt8] = Array("null".utf8)
    static let trueBytes: [UInt8] = Array("true".utf8)
    static let falseBytes: [UInt8] = Array("false".utf8)
    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
