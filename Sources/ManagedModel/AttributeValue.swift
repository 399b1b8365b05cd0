public import Foundation

/// A single attribute value as it travels between contexts, the coordinator and a store.
///
/// Rows are built from these so that they are `Sendable` and can cross from a store's
/// thread to any context. `null` stands for "no value" (Core Data's `nil`).
public enum AttributeValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case string(String)
    case int(Int64)
    case double(Double)
    case float(Float)
    case decimal(Decimal)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case uri(URL)
    /// Opaque bytes of a `Transformable` attribute (already encoded by the application).
    case transformable(Data)

    /// Whether this is ``null``.
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The string payload, if this is a string.
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    /// The integer payload, if this is an integer (booleans count as 0/1).
    public var int64Value: Int64? {
        switch self {
        case .int(let i): return i
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }
    /// The boolean payload, if this is a boolean or an integer.
    public var boolValue: Bool? {
        switch self {
        case .bool(let b): return b
        case .int(let i): return i != 0
        default: return nil
        }
    }
    /// The date payload, if this is a date.
    public var dateValue: Date? { if case .date(let d) = self { return d } else { return nil } }
    /// The bytes of a binary or transformable value.
    public var dataValue: Data? {
        switch self {
        case .data(let d), .transformable(let d): return d
        default: return nil
        }
    }
    /// The UUID payload, if this is a UUID.
    public var uuidValue: UUID? { if case .uuid(let u) = self { return u } else { return nil } }
    /// The URL payload, if this is a URI.
    public var uriValue: URL? { if case .uri(let u) = self { return u } else { return nil } }

    /// The value as a `Double` when it is numeric (int, double, float, decimal, bool), so
    /// that numbers of different widths compare as numbers do in Core Data.
    public var numericValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .float(let f): return Double(f)
        case .decimal(let d): return NSDecimalNumber(decimal: d).doubleValue
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }

    /// A short name of the case, used in type-mismatch errors.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .string: return "string"
        case .int: return "int"
        case .double: return "double"
        case .float: return "float"
        case .decimal: return "decimal"
        case .bool: return "bool"
        case .date: return "date"
        case .data: return "data"
        case .uuid: return "uuid"
        case .uri: return "uri"
        case .transformable: return "transformable"
        }
    }

    /// Whether `scalar` (in the Basic Multilingual Plane, which `\uXXXX` can write) joins
    /// the character before it (a combining mark, a joiner) or after it (a prepended mark)
    /// into one Character.
    private static func joinsItsNeighbour(_ scalar: Unicode.Scalar) -> Bool {
        guard !scalar.isASCII, scalar.value <= 0xFFFF else { return false }
        var after = "a"
        after.unicodeScalars.append(scalar)
        var before = ""
        before.unicodeScalars.append(scalar)
        before += "a"
        return after.count == 1 || before.count == 1
    }

    /// A predicate-format rendering of the value (strings quoted and escaped).
    public var description: String {
        switch self {
        case .null: return "nil"
        case .string(let s):
            // Scalar by scalar: Swift reads a quote followed by a combining mark as one
            // Character, so the marks (and the scalars that join the next character) are
            // written as \uXXXX escapes, and the text parses back to the same string.
            var out = "\""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case "\r": out += "\\r"
                default:
                    if Self.joinsItsNeighbour(scalar) {
                        let hex = String(scalar.value, radix: 16)
                        out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out + "\""
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .float(let f): return String(f)
        case .decimal(let d): return "\(d)"
        case .bool(let b): return b ? "YES" : "NO"
        case .date(let d): return "CAST(\(d.timeIntervalSinceReferenceDate), \"NSDate\")"
        case .data(let d): return "<data \(d.count) bytes>"
        case .uuid(let u): return "UUID(\(u.uuidString))"
        case .uri(let u): return "URL(\(u.absoluteString))"
        case .transformable(let d): return "<transformable \(d.count) bytes>"
        }
    }
}
