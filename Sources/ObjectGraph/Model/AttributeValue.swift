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

    /// The value as a `Decimal` when it is numeric, for exact comparisons of decimals.
    var decimalValue: Decimal? {
        switch self {
        case .int(let i): return Decimal(i)
        case .decimal(let d): return d
        case .bool(let b): return b ? 1 : 0
        case .double(let d): return Decimal(d)
        case .float(let f): return Decimal(Double(f))
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

    /// A predicate-format rendering of the value (strings quoted and escaped).
    public var description: String {
        switch self {
        case .null: return "nil"
        case .string(let s):
            var out = "\""
            for ch in s {
                switch ch {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                default: out.append(ch)
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

    /// Orders two values the way a sort descriptor does: `null` first, numbers by value,
    /// strings lexicographically (optionally ignoring case and accents), dates by time.
    /// Returns `nil` when the two values are of kinds that cannot be ordered.
    public static func compare(_ a: AttributeValue, _ b: AttributeValue, caseInsensitive: Bool = false,
                               diacriticInsensitive: Bool = false) -> ComparisonResult? {
        switch (a, b) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case (.string(let x), .string(let y)):
            var options: ComparisonOptions = []
            if caseInsensitive { options.insert(.caseInsensitive) }
            if diacriticInsensitive { options.insert(.diacriticInsensitive) }
            let l = options.isEmpty ? x : PredicateEvaluator.normalize(x, options)
            let r = options.isEmpty ? y : PredicateEvaluator.normalize(y, options)
            return l < r ? .orderedAscending : (l == r ? .orderedSame : .orderedDescending)
        case (.date(let x), .date(let y)):
            return x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
        case (.uuid(let x), .uuid(let y)):
            return compare(.string(x.uuidString), .string(y.uuidString))
        case (.uri(let x), .uri(let y)):
            return compare(.string(x.absoluteString), .string(y.absoluteString))
        case (.data(let x), .data(let y)), (.transformable(let x), .transformable(let y)):
            if x == y { return .orderedSame }
            return x.lexicographicallyPrecedes(y) ? .orderedAscending : .orderedDescending
        default:
            if case .decimal = a, let x = a.decimalValue, let y = b.decimalValue {
                return x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
            }
            if case .decimal = b, let x = a.decimalValue, let y = b.decimalValue {
                return x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
            }
            if let x = a.numericValue, let y = b.numericValue {
                return x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
            }
            return nil
        }
    }

    /// Equality as predicates see it: numbers of different kinds are equal when their values
    /// are, everything else compares by case and payload.
    public static func looselyEqual(_ a: AttributeValue, _ b: AttributeValue) -> Bool {
        if a.numericValue != nil, b.numericValue != nil {
            return compare(a, b) == .orderedSame
        }
        return a == b
    }
}
