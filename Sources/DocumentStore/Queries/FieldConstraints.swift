import DocumentFormat
/// What the top-level conditions on one field say about its collation key, for an index.
struct FieldConstraints {
    var equal: [UInt8]?
    var inList: [[UInt8]]?
    var lower: ([UInt8], Bool)?
    var upper: ([UInt8], Bool)?
    var contradictory = false

    var usable: Bool { !contradictory && (equal != nil || inList != nil || lower != nil || upper != nil || existsOnly) }
    var existsOnly = false

    /// The constraints on each key column (a path keyed plainly, or folded for `$foldEq`).
    /// The longest `$in` list an index plan binds.
    static let maximumBoundList = 500

    static func collect(_ conditions: [(FieldPath, FieldCondition)]) -> [QueryIndex.Key: FieldConstraints] {
        var result: [QueryIndex.Key: FieldConstraints] = [:]
        for (path, condition) in conditions {
            if case .foldEq(let text) = condition {
                let key = QueryIndex.Key(path: path, folded: true)
                var constraint = result[key] ?? FieldConstraints()
                constraint.setEqual(CollationKey.make(.string(TextFolding.fold(text))))
                result[key] = constraint
                continue
            }
            let key = QueryIndex.Key(path: path, folded: false)
            var constraint = result[key] ?? FieldConstraints()
            switch condition {
            case .eq(let value): constraint.setEqual(CollationKey.make(value))
            case .gt(let value): constraint.raiseLower(CollationKey.make(value), inclusive: false)
            case .gte(let value): constraint.raiseLower(CollationKey.make(value), inclusive: true)
            case .lt(let value): constraint.lowerUpper(CollationKey.make(value), inclusive: false)
            case .lte(let value): constraint.lowerUpper(CollationKey.make(value), inclusive: true)
            case .in(let list):
                // Longer lists are checked row by row (or through a candidate set) rather than
                // bound as SQL parameters, whose number SQLite limits.
                if constraint.inList == nil, list.values.count <= maximumBoundList {
                    constraint.inList = list.values.map(CollationKey.make)
                }
            case .exists(true): constraint.existsOnly = true
            default: continue
            }
            result[key] = constraint
        }
        return result
    }

    private mutating func setEqual(_ key: [UInt8]) {
        if let equal, equal != key { contradictory = true }
        equal = key
    }

    private mutating func raiseLower(_ key: [UInt8], inclusive: Bool) {
        if let (current, currentInclusive) = lower {
            let order = CollationKey.compare(key, current)
            if order < 0 || (order == 0 && !currentInclusive) { return }
        }
        lower = (key, inclusive)
    }

    private mutating func lowerUpper(_ key: [UInt8], inclusive: Bool) {
        if let (current, currentInclusive) = upper {
            let order = CollationKey.compare(key, current)
            if order > 0 || (order == 0 && !currentInclusive) { return }
        }
        upper = (key, inclusive)
    }
}
