/// A JSON value as WebDriver exchanges it: the result of `Browser.execute`, an element
/// property, or a script argument.
///
/// The package's own `DocumentFormat.JSONValue` is deliberately not reused, so this
/// test-support library stays free of the package's modules; the distinct name keeps both
/// importable side by side.
public enum ScriptValue: Sendable, Hashable {
    /// JSON `null` (also what a script returning `undefined` yields).
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// Any JSON number; JavaScript has only doubles, so integers arrive here too.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([ScriptValue])
    /// An object; WebDriver element references arrive as objects too.
    case object([String: ScriptValue])

    /// The string, or nil when this is not a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, or nil when this is not a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number, or nil when this is not a number.
    public var doubleValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, or nil when this is not a number with an integral value.
    public var intValue: Int? {
        guard case .number(let value) = self, value.rounded() == value,
              value >= -9_007_199_254_740_992, value <= 9_007_199_254_740_992 else { return nil }
        return Int(value)
    }

    /// The elements, or nil when this is not an array.
    public var arrayValue: [ScriptValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, or nil when this is not an object.
    public var objectValue: [String: ScriptValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// The member named `key` of an object; nil for a missing key or a non-object.
    public subscript(key: String) -> ScriptValue? {
        objectValue?[key]
    }
}

extension ScriptValue: Codable {
    /// Decodes any JSON value, telling booleans from numbers strictly.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ScriptValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ScriptValue].self))
        }
    }

    /// Encodes the value as the JSON it stands for.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension ScriptValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `nil` is JSON `null`, so assertions read `#expect(value == nil)`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal, stored as a JSON number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal.
    public init(arrayLiteral elements: ScriptValue...) { self = .array(elements) }
    /// A dictionary literal; a later duplicate key wins.
    public init(dictionaryLiteral elements: (String, ScriptValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension ScriptValue: CustomStringConvertible {
    /// The value as compact JSON, for messages.
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .number(let value):
            if let int = intValue { return String(int) }
            return String(value)
        case .string(let value): return "\"\(value)\""
        case .array(let values): return "[" + values.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.sorted { $0.key < $1.key }
                .map { "\"\($0.key)\":\($0.value.description)" }
                .joined(separator: ",") + "}"
        }
    }
}
