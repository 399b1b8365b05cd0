/// The argument list of `$in` / `$nin`, with its strings also in a set, so a document is
/// checked against a list of thousands of IDs (a sub-query's answer) in constant time.
package struct ValueList: Sendable {
    /// The values, in the order given.
    package let values: [JSONValue]
    /// The string values.
    private let strings: Set<String>
    /// Whether some value is not a string (those are compared one by one).
    private let hasOthers: Bool

    package init(_ values: [JSONValue]) {
        self.values = values
        var strings = Set<String>()
        var hasOthers = false
        for value in values {
            if case .string(let text) = value { strings.insert(text) } else { hasOthers = true }
        }
        self.strings = strings
        self.hasOthers = hasOthers
    }

    /// Whether `value` equals one of the values (JSON equality; a string equals only a string).
    package func contains(_ value: JSONValue) -> Bool {
        if case .string(let text) = value { return strings.contains(text) }
        return hasOthers && values.contains { JSONEquality.equal(value, $0) }
    }
}
