import DocumentStore
import Foundation

/// Fast conversion between JSON text and `JSONValue` for replication traffic.
///
/// Parsing goes through Foundation's `JSONSerialization` (much faster than decoding
/// `JSONValue` through `Codable` for thousands of documents); writing appends straight to a
/// byte buffer so large request bodies can be assembled piece by piece.
public enum JSONText {
    /// Why text could not be read as JSON.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// What was wrong.
        public let description: String
    }

    /// Parses a JSON document (object, array or scalar).
    public static func parse(_ data: Data) throws -> JSONValue {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw ParseError(description: "invalid JSON (\(data.count) bytes): \(error.localizedDescription)")
        }
        return convert(object)
    }

    private static func convert(_ any: Any) -> JSONValue {
        switch any {
        case let string as String:
            return .string(string)
        case let number as NSNumber:
            switch UInt8(bitPattern: number.objCType.pointee) {
            case UInt8(ascii: "c"), UInt8(ascii: "B"): return .bool(number.boolValue)
            case UInt8(ascii: "d"), UInt8(ascii: "f"): return .double(number.doubleValue)
            case UInt8(ascii: "Q"):
                let value = number.uint64Value
                return value <= UInt64(Int64.max) ? .int(Int64(value)) : .double(number.doubleValue)
            default: return .int(number.int64Value)
            }
        case let array as [Any]:
            return .array(array.map(convert))
        case let object as [String: Any]:
            var result: [String: JSONValue] = [:]
            result.reserveCapacity(object.count)
            for (key, value) in object { result[key] = convert(value) }
            return .object(result)
        default:
            return .null
        }
    }

    /// The compact JSON text of a value.
    public static func encode(_ value: JSONValue) -> Data {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(256)
        append(value, to: &buffer)
        return Data(buffer)
    }

    /// Appends the compact JSON text of a value to a byte buffer.
    public static func append(_ value: JSONValue, to buffer: inout [UInt8]) {
        switch value {
        case .null: buffer.append(contentsOf: "null".utf8)
        case .bool(let flag): buffer.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): buffer.append(contentsOf: String(number).utf8)
        case .double(let number):
            if number.isFinite {
                if number.rounded() == number, abs(number) < 1e15 {
                    buffer.append(contentsOf: String(Int64(number)).utf8)
                    buffer.append(contentsOf: ".0".utf8)
                } else {
                    buffer.append(contentsOf: "\(number)".utf8)
                }
            } else {
                buffer.append(contentsOf: "null".utf8)
            }
        case .string(let text): appendString(text, to: &buffer)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                append(element, to: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let members):
            appendObject(members, to: &buffer)
        }
    }

    /// Appends an object's members in key order (stable output for equal objects).
    public static func appendObject(_ members: [String: JSONValue], to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "{"))
        var first = true
        for key in members.keys.sorted() {
            if !first { buffer.append(UInt8(ascii: ",")) }
            first = false
            appendString(key, to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            append(members[key]!, to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// Appends a JSON string literal, escaping quotes, backslashes and control characters.
    public static func appendString(_ text: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                           hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
