/// A condition on one field's value (the operator part of a Mango selector).
package indirect enum FieldCondition: Sendable {
    case eq(JSONValue)
    case ne(JSONValue)
    case gt(JSONValue)
    case gte(JSONValue)
    case lt(JSONValue)
    case lte(JSONValue)
    case `in`(ValueList)
    case nin(ValueList)
    case exists(Bool)
    /// Equal to the string ignoring case and accents (``TextFolding``); a folded index
    /// answers it.
    case foldEq(String)
    /// A string that contains the text ignoring case and accents; a text index answers it.
    case text(String)
    case and([FieldCondition])
    case not(FieldCondition)

    /// Parses an operator object such as `{"$gt": 1, "$lt": 5}` (several operators = `$and`).
    package init(parsing members: JSONObject, field: String) throws {
        var conditions: [FieldCondition] = []
        for key in CanonicalJSON.sortedKeys(members) {
            let argument = members[key]!
            switch key {
            case "$eq": conditions.append(.eq(argument))
            case "$ne": conditions.append(.ne(argument))
            case "$gt": conditions.append(.gt(argument))
            case "$gte": conditions.append(.gte(argument))
            case "$lt": conditions.append(.lt(argument))
            case "$lte": conditions.append(.lte(argument))
            case "$in", "$nin":
                guard case .array(let values) = argument else {
                    throw DocumentFormatError.invalidJSON("\(key) on field '\(field)' needs an array")
                }
                conditions.append(key == "$in" ? .in(ValueList(values)) : .nin(ValueList(values)))
            case "$exists":
                guard case .bool(let flag) = argument else {
                    throw DocumentFormatError.invalidJSON("$exists on field '\(field)' needs true or false")
                }
                conditions.append(.exists(flag))
            case "$foldEq", "$text":
                guard case .string(let text) = argument else {
                    throw DocumentFormatError.invalidJSON("\(key) on field '\(field)' needs a string")
                }
                conditions.append(key == "$text" ? .text(text) : .foldEq(text))
            case "$not":
                guard case .object(let inner) = argument, !inner.isEmpty,
                      inner.keys.allSatisfy({ $0.hasPrefix("$") })
                else {
                    throw DocumentFormatError.invalidJSON("$not on field '\(field)' needs an operator object")
                }
                conditions.append(.not(try FieldCondition(parsing: inner, field: field)))
            default:
                throw DocumentFormatError.invalidJSON("unknown operator \(key) on field '\(field)'")
            }
        }
        self = conditions.count == 1 ? conditions[0] : .and(conditions)
    }

    /// Whether a field value (`nil` when the field is missing) satisfies the condition.
    package func matches(_ value: JSONValue?) -> Bool {
        guard let value else {
            switch self {
            case .exists(let flag): return !flag
            case .and(let parts): return parts.allSatisfy { $0.matches(nil) }
            default: return false
            }
        }
        switch self {
        case .eq(let argument): return JSONEquality.equal(value, argument)
        case .ne(let argument): return !JSONEquality.equal(value, argument)
        case .gt(let argument): return CollationKey.compare(value, argument) > 0
        case .gte(let argument): return CollationKey.compare(value, argument) >= 0
        case .lt(let argument): return CollationKey.compare(value, argument) < 0
        case .lte(let argument): return CollationKey.compare(value, argument) <= 0
        case .in(let arguments): return arguments.contains(value)
        case .nin(let arguments): return !arguments.contains(value)
        case .exists(let flag): return flag
        case .foldEq(let text):
            guard case .string(let string) = value else { return false }
            return TextFolding.fold(string) == TextFolding.fold(text)
        case .text(let text):
            guard case .string(let string) = value else { return false }
            return TextFolding.contains(string, text)
        case .and(let parts): return parts.allSatisfy { $0.matches(value) }
        case .not(let part): return !part.matches(value)
        }
    }

    /// The condition split into the parts that must all hold.
    package var conjuncts: [FieldCondition] {
        if case .and(let parts) = self { return parts.flatMap(\.conjuncts) }
        return [self]
    }
}
