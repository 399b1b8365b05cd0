import Foundation

/// Runs an ``ObjectPredicate`` in memory against anything ``PredicateEvaluable``:
/// managed objects (pending changes included) or row snapshots.
///
/// Semantics follow NSPredicate: `nil` equals only `nil` and never orders; numbers compare
/// by value whatever their width; a to-many key path on the left without a modifier means
/// `ANY` (except `CONTAINS`, which then tests membership); `ALL` over an empty collection
/// holds; `LIKE` understands `*` and `?`; `MATCHES` is a whole-string regular expression.
public enum PredicateEvaluator {
    /// Whether `predicate` holds for `subject`.
    /// - Throws: ``PredicateEvaluationError`` for unknown keys or invalid patterns.
    public static func evaluate(_ predicate: ObjectPredicate, on subject: any PredicateEvaluable) throws -> Bool {
        switch predicate {
        case .truePredicate: return true
        case .falsePredicate: return false
        case .and(let items):
            for p in items where try !evaluate(p, on: subject) { return false }
            return true
        case .or(let items):
            for p in items where try evaluate(p, on: subject) { return true }
            return false
        case .not(let p): return try !evaluate(p, on: subject)
        case .comparison(let c): return try evaluate(c, on: subject)
        }
    }

    /// The value an expression yields on `subject`, in the evaluator's terms.
    enum Value {
        case scalar(AttributeValue)
        case object(ObjectID?, (any PredicateEvaluable)?)
        case list([Value])

        var elements: [Value] {
            if case .list(let items) = self { return items }
            return [self]
        }
    }

    /// Resolves an expression (a key path is walked through relationships).
    static func resolve(_ expression: PredicateExpression, on subject: any PredicateEvaluable) throws -> Value {
        switch expression {
        case .constant(let v): return .scalar(v)
        case .object(let id): return .object(id, nil)
        case .evaluatedObject: return .object(subject.evaluationObjectID, subject)
        case .aggregate(let items): return .list(try items.map { try resolve($0, on: subject) })
        case .keyPath(let path):
            var current = Value.object(subject.evaluationObjectID, subject)
            let components = path.split(separator: ".").map(String.init)
            var i = 0
            while i < components.count {
                let key = components[i]
                if key.hasPrefix("@") {
                    // `@sum.x` aggregates the rest of the path over the collection.
                    for rest in components[(i + 1)...] { current = try step(current, rest) }
                    return try collectionOperator(key, on: current)
                }
                current = try step(current, key)
                i += 1
            }
            return current
        }
    }

    private static func step(_ value: Value, _ key: String) throws -> Value {
        switch value {
        case .object(_, let subject?):
            switch try subject.evaluationValue(forKey: key) {
            case .attribute(let a): return .scalar(a)
            case .toOne(let dest?): return .object(dest.evaluationObjectID, dest)
            case .toOne(nil): return .scalar(.null)
            case .toOneReference(let id): return .object(id, nil)
            case .toMany(let items): return .list(items.map { .object($0.evaluationObjectID, $0) })
            }
        case .object(_, nil), .scalar:
            return .scalar(.null)
        case .list(let items):
            var out: [Value] = []
            for item in items {
                let v = try step(item, key)
                if case .list(let inner) = v { out += inner } else { out.append(v) }
            }
            return .list(out)
        }
    }

    private static func collectionOperator(_ op: String, on value: Value) throws -> Value {
        let items: [Value]
        switch value {
        case .list(let l): items = l
        case .scalar(.null): items = []
        default: items = [value]
        }
        let scalars = items.compactMap { v -> AttributeValue? in
            if case .scalar(let s) = v, !s.isNull { return s }
            return nil
        }
        switch op.lowercased() {
        case "@count": return .scalar(.int(Int64(items.count)))
        case "@sum":
            if scalars.allSatisfy({ if case .int = $0 { return true } else { return false } }) {
                return .scalar(.int(scalars.compactMap(\.int64Value).reduce(0, +)))
            }
            return .scalar(.double(scalars.compactMap(\.numericValue).reduce(0, +)))
        case "@avg":
            let nums = scalars.compactMap(\.numericValue)
            return .scalar(nums.isEmpty ? .null : .double(nums.reduce(0, +) / Double(nums.count)))
        case "@min", "@max":
            let wantMin = op.lowercased() == "@min"
            var best: AttributeValue?
            for s in scalars {
                guard let b = best else { best = s; continue }
                if let order = AttributeValue.compare(s, b) {
                    if (wantMin && order == .orderedAscending) || (!wantMin && order == .orderedDescending) { best = s }
                }
            }
            return .scalar(best ?? .null)
        default:
            throw PredicateEvaluationError.unknownKey(op, entity: "collection operator (use @count, @sum, @avg, @min or @max)")
        }
    }

    private static func evaluate(_ c: PredicateComparison, on subject: any PredicateEvaluable) throws -> Bool {
        let left = try resolve(c.left, on: subject)
        let right = try resolve(c.right, on: subject)
        switch c.modifier {
        case .any:
            for e in left.elements where try compare(e, c.op, right, c.options) { return true }
            return false
        case .all:
            for e in left.elements where try !compare(e, c.op, right, c.options) { return false }
            return true
        case .none:
            for e in left.elements where try compare(e, c.op, right, c.options) { return false }
            return true
        case .direct:
            if case .list(let items) = left {
                if c.op == .contains { return items.contains { equal($0, right, c.options) } }
                if case .list = right, c.op == .equal || c.op == .notEqual {
                    let same = sameCollection(items, right.elements, c.options)
                    return c.op == .equal ? same : !same
                }
                for e in items where try compare(e, c.op, right, c.options) { return true }
                return false
            }
            return try compare(left, c.op, right, c.options)
        }
    }

    private static func sameCollection(_ a: [Value], _ b: [Value], _ options: ComparisonOptions) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, options) }
    }

    static func normalize(_ s: String, _ options: ComparisonOptions) -> String {
        var t = s
        if options.contains(.diacriticInsensitive) { t = t.folding(options: .diacriticInsensitive, locale: nil) }
        if options.contains(.caseInsensitive) { t = t.lowercased() }
        return t
    }

    static func equal(_ a: Value, _ b: Value, _ options: ComparisonOptions) -> Bool {
        switch (a, b) {
        case (.object(let x, _), .object(let y, _)): return x != nil && x == y
        case (.scalar(.string(let x)), .scalar(.string(let y))): return normalize(x, options) == normalize(y, options)
        case (.scalar(let x), .scalar(let y)): return AttributeValue.looselyEqual(x, y)
        default: return false
        }
    }

    private static func compare(_ left: Value, _ op: PredicateOperator, _ right: Value, _ options: ComparisonOptions) throws -> Bool {
        switch op {
        case .equal: return equal(left, right, options)
        case .notEqual: return !equal(left, right, options)
        case .in:
            if case .list(let items) = right { return items.contains { equal(left, $0, options) } }
            if case .scalar(.string(let hay)) = right, case .scalar(.string(let needle)) = left {
                return normalize(hay, options).contains(normalize(needle, options))
            }
            return equal(left, right, options)
        case .between:
            guard case .list(let bounds) = right, bounds.count == 2,
                  case .scalar(let v) = left, case .scalar(let lo) = bounds[0], case .scalar(let hi) = bounds[1],
                  !v.isNull, !lo.isNull, !hi.isNull,
                  let a = order(v, lo, options), let b = order(v, hi, options) else { return false }
            return a != .orderedAscending && b != .orderedDescending
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            guard case .scalar(let x) = left, case .scalar(let y) = right, !x.isNull, !y.isNull,
                  let o = order(x, y, options) else { return false }
            switch op {
            case .lessThan: return o == .orderedAscending
            case .lessThanOrEqual: return o != .orderedDescending
            case .greaterThan: return o == .orderedDescending
            default: return o != .orderedAscending
            }
        case .beginsWith, .endsWith, .contains, .like, .matches:
            if op == .contains, case .list(let items) = right {
                // "x CONTAINS {a, b}" is not meaningful for strings; compare membership.
                return items.contains { equal(left, $0, options) }
            }
            guard case .scalar(.string(let rawL)) = left, case .scalar(.string(let rawR)) = right else { return false }
            if op == .matches { return try regexMatches(rawL, pattern: rawR, options) }
            let l = normalize(rawL, options), r = normalize(rawR, options)
            switch op {
            case .beginsWith: return l.hasPrefix(r)
            case .endsWith: return l.hasSuffix(r)
            case .contains: return l.contains(r)
            default: return likeMatches(Array(l), Array(r))
            }
        }
    }

    private static func order(_ a: AttributeValue, _ b: AttributeValue, _ options: ComparisonOptions) -> ComparisonResult? {
        if case .string(let x) = a, case .string(let y) = b {
            return AttributeValue.compare(.string(normalize(x, options)), .string(normalize(y, options)))
        }
        return AttributeValue.compare(a, b)
    }

    /// Wildcard match: `*` any run of characters, `?` exactly one.
    static func likeMatches(_ text: [Character], _ pattern: [Character]) -> Bool {
        var t = 0, p = 0
        var starP = -1, starT = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || (pattern[p] != "*" && pattern[p] == text[t]) {
                t += 1; p += 1
            } else if p < pattern.count, pattern[p] == "*" {
                starP = p; starT = t; p += 1
            } else if starP >= 0 {
                p = starP + 1; starT += 1; t = starT
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    private static func regexMatches(_ text: String, pattern: String, _ options: ComparisonOptions) throws -> Bool {
        var regexOptions: NSRegularExpression.Options = []
        if options.contains(.caseInsensitive) { regexOptions.insert(.caseInsensitive) }
        let regex: NSRegularExpression
        do { regex = try NSRegularExpression(pattern: "^(?:" + pattern + ")$", options: regexOptions) }
        catch { throw PredicateEvaluationError.invalidRegularExpression(pattern) }
        let subject = options.contains(.diacriticInsensitive) ? normalize(text, [.diacriticInsensitive]) : text
        let range = NSRange(subject.startIndex..., in: subject)
        return regex.firstMatch(in: subject, options: [], range: range) != nil
    }
}

/// Something a predicate can be evaluated against: a managed object, or a row snapshot
/// wrapped in ``RowEvaluationSubject``.
public protocol PredicateEvaluable {
    /// The object's ID (compared with `%@` objects and used by `SELF`).
    var evaluationObjectID: ObjectID? { get }
    /// The value of one key (not a path).
    /// - Throws: ``PredicateEvaluationError/unknownKey(_:entity:)`` for keys the entity lacks.
    func evaluationValue(forKey key: String) throws -> PredicateKeyValue
}

/// What a key resolves to on an object being evaluated.
public enum PredicateKeyValue {
    /// An attribute value.
    case attribute(AttributeValue)
    /// A to-one relationship whose destination can be traversed (`nil` when empty).
    case toOne((any PredicateEvaluable)?)
    /// A to-one relationship whose destination is known only by ID (cannot be traversed).
    case toOneReference(ObjectID)
    /// A to-many relationship's destinations.
    case toMany([any PredicateEvaluable])
}

/// Why a predicate could not be evaluated.
public enum PredicateEvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key is not a property of the entity.
    case unknownKey(String, entity: String)
    /// A regular expression in `MATCHES` did not compile.
    case invalidRegularExpression(String)

    /// A message naming the cause and the fix.
    public var description: String {
        switch self {
        case .unknownKey(let k, let e): return "key \"\(k)\" is not a property of entity \"\(e)\"; fix the key path"
        case .invalidRegularExpression(let r): return "MATCHES pattern \"\(r)\" is not a valid regular expression; fix the pattern"
        }
    }
}
