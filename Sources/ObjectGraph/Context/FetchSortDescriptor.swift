public import Foundation

/// One sort key of a fetch: an attribute or a key path through to-one relationships
/// (`type.name`), ascending or descending, optionally case-insensitive for strings.
/// `nil` sorts before every value when ascending.
public struct FetchSortDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The key path.
    public var keyPath: String
    /// Ascending (`true`) or descending.
    public var ascending: Bool
    /// Compare strings ignoring case.
    public var caseInsensitive: Bool
    /// Compare strings ignoring accents (with ``caseInsensitive``, the order of names a
    /// person expects: "crème" between "cream" and "crêpe", not after "zucchini").
    public var diacriticInsensitive: Bool

    /// Creates a sort descriptor.
    public init(_ keyPath: String, ascending: Bool = true, caseInsensitive: Bool = false, diacriticInsensitive: Bool = false) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.caseInsensitive = caseInsensitive
        self.diacriticInsensitive = diacriticInsensitive
    }

    /// `keyPath ASC|DESC [c]`.
    public var description: String { "\(keyPath) \(ascending ? "ASC" : "DESC")\(caseInsensitive || diacriticInsensitive ? " [\(caseInsensitive ? "c" : "")\(diacriticInsensitive ? "d" : "")]" : "")" }

    /// The value of this descriptor's key path on a subject (`null` when a relationship
    /// on the way is empty).
    public func value(on subject: any PredicateEvaluable) throws -> AttributeValue {
        switch try PredicateEvaluator.resolve(.keyPath(keyPath), on: subject) {
        case .scalar(let v): return v
        case .object(let id, _): return id.map { .string($0.stringRepresentation) } ?? .null
        case .list: return .null
        }
    }

    /// Orders two subjects by a list of descriptors (stable ties: `.orderedSame`).
    public static func compare(_ a: any PredicateEvaluable, _ b: any PredicateEvaluable, by descriptors: [FetchSortDescriptor]) throws -> ComparisonResult {
        for d in descriptors {
            let x = try d.value(on: a), y = try d.value(on: b)
            let order = AttributeValue.compare(x, y, caseInsensitive: d.caseInsensitive, diacriticInsensitive: d.diacriticInsensitive) ?? .orderedSame
            if order == .orderedSame { continue }
            if d.ascending { return order }
            return order == .orderedAscending ? .orderedDescending : .orderedAscending
        }
        return .orderedSame
    }

    /// Sorts subjects stably by the descriptors.
    public static func sort<T>(_ items: [T], by descriptors: [FetchSortDescriptor], subject: (T) -> any PredicateEvaluable) throws -> [T] {
        guard !descriptors.isEmpty else { return items }
        // Precompute keys once per item, then sort stably by (keys, original index).
        let keyed = try items.enumerated().map { (i, item) -> (Int, [AttributeValue], T) in
            let s = subject(item)
            return (i, try descriptors.map { try $0.value(on: s) }, item)
        }
        let sorted = keyed.sorted { l, r in
            for (k, d) in descriptors.enumerated() {
                let order = AttributeValue.compare(l.1[k], r.1[k], caseInsensitive: d.caseInsensitive, diacriticInsensitive: d.diacriticInsensitive) ?? .orderedSame
                if order == .orderedSame { continue }
                return d.ascending ? order == .orderedAscending : order == .orderedDescending
            }
            return l.0 < r.0
        }
        return sorted.map(\.2)
    }
}
