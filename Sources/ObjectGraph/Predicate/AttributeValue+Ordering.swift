public import Foundation
public import ManagedModel

// Ordering and equality of attribute values belong to the predicate layer: they fold case
// and accents the way predicates do (``PredicateEvaluator``), so sorts and comparisons agree.
extension AttributeValue {
    /// The value as a `Decimal` when it is numeric, for exact comparisons of decimals.
    fileprivate var decimalValue: Decimal? {
        switch self {
        case .int(let i): return Decimal(i)
        case .decimal(let d): return d
        case .bool(let b): return b ? 1 : 0
        case .double(let d): return Decimal(d)
        case .float(let f): return Decimal(Double(f))
        default: return nil
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
