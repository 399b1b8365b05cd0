import Foundation

/// A JSON value as the datastore keeps it: a closed, `Sendable` tree, so document bodies can
/// cross tasks and be compared, hashed and encoded canonically.
///
/// Integers stay integers (`int`) so 64-bit values such as IEEE-754 bit patterns survive a
/// round trip exactly; every other number is a `double`.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue: Codable {
    /// Decodes any JSON value: booleans as booleans, exact integers as `int`, other numbers as
    /// `double`. Strings are tried first because they are the commonest members of documents.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    /// Encodes the value as the JSON it stands for.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `nil` is JSON `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A Swift boolean literal is a JSON boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A Swift integer literal is an exact JSON integer.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// A Swift floating-point literal is a JSON double.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A Swift string literal is a JSON string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A Swift array literal is a JSON array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A Swift dictionary literal is a JSON object; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue {
    /// The string, if this is a JSON string.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The object's members, if this is a JSON object.
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }
    /// The elements, if this is a JSON array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    /// The boolean, if this is a JSON boolean.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The number as an exact integer, if it is one (a double with no fraction counts).
    public var intValue: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.2e18: return Int64(d)
        default: return nil
        }
    }
    /// The number as a double, if this is a JSON number.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }
    /// Whether this is JSON `null`.
    public var isNull: Bool { self == .null }
}

/// A JSON object: the body of a document or of a local document.
public typealias JSONObject = [String: JSONValue]
