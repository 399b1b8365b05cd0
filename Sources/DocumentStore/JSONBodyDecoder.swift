import Foundation

/// Turns stored JSON bytes back into `JSONValue`s, through Foundation's `JSONSerialization`
/// (faster here than a `Codable` decode of `JSONValue`), keeping integers exact.
enum JSONBodyDecoder {
    /// Decodes a JSON object; throws `.invalidJSON` when the bytes are not one.
    static func decodeObject(_ data: Data) throws -> JSONObject {
        try JSONValue.parseObject(data)
    }

    /// Converts a `JSONSerialization` result to a `JSONValue`.
    static func value(from any: Any) -> JSONValue {
        switch any {
        case let string as String:
            return .string(string)
        case let dictionary as [String: Any]:
            var object = JSONObject(minimumCapacity: dictionary.count)
            for (key, element) in dictionary { object[key] = value(from: element) }
            return .object(object)
        case let array as [Any]:
            return .array(array.map(value(from:)))
        case let number as NSNumber:
            return numberValue(number)
        default:
            return .null
        }
    }

    private static func numberValue(_ number: NSNumber) -> JSONValue {
        let type = number.objCType.pointee
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "c"), UInt8(ascii: "B"):
            return .bool(number.boolValue)
        case UInt8(ascii: "d"), UInt8(ascii: "f"):
            if number is NSDecimalNumber, let exact = Int64(number.stringValue) { return .int(exact) }
            return .double(number.doubleValue)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"):
            let unsigned = number.uint64Value
            return unsigned <= UInt64(Int64.max) ? .int(Int64(unsigned)) : .double(Double(unsigned))
        default:
            return .int(number.int64Value)
        }
    }
}
