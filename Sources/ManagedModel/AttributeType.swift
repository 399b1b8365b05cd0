import Foundation

/// The attribute types of Xcode's Core Data model editor, named as its XML writes them.
public enum AttributeType: String, Sendable, Hashable, CaseIterable {
    case string = "String"
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case double = "Double"
    case float = "Float"
    case decimal = "Decimal"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case transformable = "Transformable"
    case uuid = "UUID"
    case uri = "URI"

    /// Whether values of this type are numbers (so min/max bound the value, not a length).
    public var isNumeric: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .double, .float, .decimal: return true
        default: return false
        }
    }

    /// The inclusive range an integer type can hold, or `nil` for non-integer types.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: return Int64(Int16.min)...Int64(Int16.max)
        case .integer32: return Int64(Int32.min)...Int64(Int32.max)
        case .integer64: return Int64.min...Int64.max
        default: return nil
        }
    }

    /// Whether `value` may be stored in an attribute of this type. `null` is always
    /// accepted here; optionality is checked when the context validates on save.
    public func accepts(_ value: AttributeValue) -> Bool {
        switch (self, value) {
        case (_, .null): return true
        case (.string, .string): return true
        case (.integer16, .int(let i)), (.integer32, .int(let i)), (.integer64, .int(let i)):
            return integerRange!.contains(i)
        case (.double, .double), (.float, .float), (.decimal, .decimal): return true
        case (.boolean, .bool): return true
        case (.date, .date): return true
        case (.binary, .data): return true
        case (.transformable, .transformable): return true
        case (.uuid, .uuid): return true
        case (.uri, .uri): return true
        default: return false
        }
    }

    /// Converts a compatible value to this type's canonical case (an `Int` for a `Double`
    /// attribute becomes `.double`, a `.data` for a transformable attribute becomes
    /// `.transformable`), or returns `nil` when no lossless conversion exists.
    public func coerce(_ value: AttributeValue) -> AttributeValue? {
        if accepts(value) { return value }
        switch (self, value) {
        case (.double, .int(let i)): return .double(Double(i))
        case (.double, .float(let f)): return .double(Double(f))
        case (.float, .int(let i)): return .float(Float(i))
        case (.float, .double(let d)): return .float(Float(d))
        case (.decimal, .int(let i)): return .decimal(Decimal(i))
        case (.decimal, .double(let d)): return .decimal(Decimal(d))
        case (.boolean, .int(let i)) where i == 0 || i == 1: return .bool(i == 1)
        case (.transformable, .data(let d)): return .transformable(d)
        case (.binary, .transformable(let d)): return .data(d)
        default: return nil
        }
    }

    /// Parses a `defaultValueString` (or `minValueString`/`maxValueString`) written by
    /// Xcode into a value of this type, or `nil` when the text does not fit the type.
    public func parseValueString(_ text: String) -> AttributeValue? {
        switch self {
        case .string: return .string(text)
        case .integer16, .integer32, .integer64:
            guard let i = Int64(text), integerRange!.contains(i) else { return nil }
            return .int(i)
        case .double: return Double(text).map { .double($0) }
        case .float: return Float(text).map { .float($0) }
        case .decimal: return Decimal(string: text).map { .decimal($0) }
        case .boolean:
            switch text.uppercased() {
            case "YES", "TRUE", "1": return .bool(true)
            case "NO", "FALSE", "0": return .bool(false)
            default: return nil
            }
        case .date: return Double(text).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .uuid: return UUID(uuidString: text).map { .uuid($0) }
        case .uri: return URL(string: text).map { .uri($0) }
        case .binary, .transformable: return nil
        }
    }
}
