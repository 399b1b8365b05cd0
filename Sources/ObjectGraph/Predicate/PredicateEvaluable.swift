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

/// Something a predicate can be evaluated against: a managed object, or a row snapshot
/// wrapped in ``RowEvaluationSubject``.
public protocol PredicateEvaluable {
    /// The object's ID (compared with `%@` objects and used by `SELF`).
    var evaluationObjectID: ObjectID? { get }
    /// The value of one key (not a path).
    /// - Throws: ``PredicateEvaluationError/unknownKey(_:entity:)`` for keys the entity lacks.
    func evaluationValue(forKey key: String) throws -> PredicateKeyValue
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
