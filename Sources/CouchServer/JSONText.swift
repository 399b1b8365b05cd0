import DocumentStore
import Foundation

/// Encodes and decodes the JSON of requests and replies.
///
/// Replies put CouchDB's leading members first (`_id`, `_rev`, `ok`, `id`, `error`, …) and the
/// rest in sorted order, so bodies read like CouchDB's and are byte-stable for the same value.
enum JSONText {
    /// Members written first, in this order, when present.
    private static let leadingKeys = [
        "_id", "_rev", "_deleted", "ok", "id", "key", "seq", "rev", "error", "reason", "value", "doc",
    ]
    private static let leadingRank: [String: Int] = Dictionary(
        uniqueKeysWithValues: leadingKeys.enumerated().map { ($1, $0) })

    /// The UTF-8 JSON text of `value`.
    static func encode(_ value: JSONValue) -> Data {
        var out = [UInt8]()
        out.reserveCapacity(256)
        write(value, into: &out)
        return Data(out)
    }

    /// The JSON text of `value` as a `String`.
    static func string(_ value: JSONValue) -> String {
        var out = [UInt8]()
        write(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses a request body; any malformed input is CouchDB's 400 `bad_request`.
    static func decode(_ data: Data) throws -> JSONValue {
        guard !data.isEmpty else { throw CouchError.invalidJSON }
        do {
            return try JSONValue.parse(data)
        } catch {
            throw CouchError.invalidJSON
        }
    }

    /// Parses a request body that must be a JSON object.
    static func decodeObject(_ data: Data) throws -> JSONObject {
        guard case .object(let object) = try decode(data) else {
            throw CouchError.badRequest("Request body must be a JSON object")
        }
        return object
    }

    private static func orderedKeys(_ object: JSONObject) -> [String] {
        object.keys.sorted { lhs, rhs in
            let l = leadingRank[lhs] ?? Int.max
            let r = leadingRank[rhs] ?? Int.max
            if l != r { return l < r }
            return lhs < rhs
        }
    }

    private static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d): writeDouble(d, into: &out)
        case .string(let s): writeString(s, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, key) in orderedKeys(object).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(object[key]!, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeDouble(_ d: Double, into out: inout [UInt8]) {
        guard d.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        if d == d.rounded(), abs(d) < 1e15 {
            out.append(contentsOf: String(Int64(d)).utf8)
            if d == 0, d.sign == .minus { return }
            out.append(contentsOf: ".0".utf8)
            return
        }
        out.append(contentsOf: "\(d)".utf8)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
