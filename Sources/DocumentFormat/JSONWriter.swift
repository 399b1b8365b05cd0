public import Foundation

/// Writes `JSONValue`s as compact UTF-8 JSON text (no whitespace), appending to a byte buffer so
/// large bodies can be assembled piece by piece without intermediate strings.
///
/// Two key orders: `.canonical` sorts object keys by their UTF-8 bytes — the form revision
/// hashes and stored bodies use, identical on every machine — and `.couchDB` writes CouchDB's
/// leading members (`_id`, `_rev`, `_deleted`, `ok`, `id`, …) first and the rest in canonical
/// order, so HTTP bodies read like CouchDB's and stay byte-stable for equal values.
/// Strings are escaped minimally; numbers use Swift's shortest round-trip form; non-finite
/// doubles, which JSON cannot express, are written as `null`.
public struct JSONWriter: Sendable {
    /// How object members are ordered.
    public enum KeyOrder: Sendable {
        /// Every key sorted by its UTF-8 bytes (the canonical form).
        case canonical
        /// CouchDB's leading members first, in `JSONWriter.leadingKeys` order, then the rest
        /// sorted as in `.canonical`.
        case couchDB
    }

    /// The members `.couchDB` writes first, in this order, when present.
    public static let leadingKeys = [
        "_id", "_rev", "_deleted", "ok", "id", "key", "seq", "rev", "error", "reason", "value", "doc",
    ]
    private static let leadingRank: [String: Int] = Dictionary(
        uniqueKeysWithValues: leadingKeys.enumerated().map { ($1, $0) })

    /// The canonical writer (sorted keys).
    public static let canonical = JSONWriter(keyOrder: .canonical)
    /// The writer for CouchDB-style HTTP bodies (leading `_id`, `_rev`, … first).
    public static let couchDB = JSONWriter(keyOrder: .couchDB)

    /// How this writer orders object members.
    public let keyOrder: KeyOrder

    /// A writer with the given key order.
    public init(keyOrder: KeyOrder) {
        self.keyOrder = keyOrder
    }

    /// The JSON text of `value` as bytes.
    public func data(_ value: JSONValue) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        append(value, to: &out)
        return Data(out)
    }

    /// The JSON text of `value` as a `String`.
    public func string(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        append(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the JSON text of `value`; returns `false` if it held a non-finite double
    /// (written as `null`), so callers that must refuse those can.
    @discardableResult
    public func append(_ value: JSONValue, to out: inout [UInt8]) -> Bool {
        switch value {
        case .null:
            out.append(contentsOf: Self.nullBytes)
            return true
        case .bool(let flag):
            out.append(contentsOf: flag ? Self.trueBytes : Self.falseBytes)
            return true
        case .int(let number):
            Self.appendInteger(number, to: &out)
            return true
        case .double(let number):
            guard number.isFinite else {
                out.append(contentsOf: Self.nullBytes)
                return false
            }
            out.append(contentsOf: number.description.utf8)
            return true
        case .string(let text):
            Self.appendString(text, to: &out)
            return true
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            var valid = true
            var first = true
            for element in elements {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                if !append(element, to: &out) { valid = false }
            }
            out.append(UInt8(ascii: "]"))
            return valid
        case .object(let members):
            return appendObject(members, to: &out)
        }
    }

    /// Appends an object in this writer's key order; `false` if it held a non-finite double.
    @discardableResult
    public func appendObject(_ members: JSONObject, to out: inout [UInt8]) -> Bool {
        out.append(UInt8(ascii: "{"))
        var valid = true
        var first = true
        for key in orderedKeys(members) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            Self.appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            if !append(members[key]!, to: &out) { valid = false }
        }
        out.append(UInt8(ascii: "}"))
        return valid
    }

    /// The object's keys in this writer's order.
    public func orderedKeys(_ members: JSONObject) -> [String] {
        switch keyOrder {
        case .canonical:
            return Self.sortedKeys(members)
        case .couchDB:
            var leading: [String] = []
            var rest: [String] = []
            rest.reserveCapacity(members.count)
            for key in members.keys {
                if Self.leadingRank[key] != nil { leading.append(key) } else { rest.append(key) }
            }
            leading.sort { Self.leadingRank[$0]! < Self.leadingRank[$1]! }
            rest.sort(by: Self.utf8Precedes)
            return leading + rest
        }
    }

    /// Keys sorted by their UTF-8 bytes: the order every replica agrees on.
    public static func sortedKeys(_ members: JSONObject) -> [String] {
        members.keys.sorted(by: utf8Precedes)
    }

    /// Whether `lhs` sorts before `rhs` by UTF-8 bytes (a `memcmp`, not a generic sequence
    /// comparison: key sorting is a large share of writing bodies).
    package static func utf8Precedes(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                let common = min(left.count, right.count)
                if common > 0 {
                    let order = memcmp(left.baseAddress!, right.baseAddress!, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
    }

    /// Appends a JSON string literal: `"` and `\` escaped, control characters as `\n`, `\r`,
    /// `\t`, `\b`, `\f` or `\u00XX`, everything else (including non-ASCII) as its UTF-8 bytes.
    public static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var runStart = 0
            for (position, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                if runStart < position { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position])) }
                runStart = position + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                default:
                    out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    Hex.append(byte, to: &out)
                }
            }
            if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends a decimal integer without going through `String`.
    package static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value >= 0 && value < 10 {
            out.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            if value < 0 { out.append(UInt8(ascii: "-")) }
            while count > 0 {
                count -= 1
                out.append(buffer[count])
            }
        }
    }

    package static let nullBytes: [UInt8] = Array("null".utf8)
    package static let trueBytes: [UInt8] = Array("true".utf8)
    package static let falseBytes: [UInt8] = Array("false".utf8)
}
