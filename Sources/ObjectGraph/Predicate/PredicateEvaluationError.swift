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
