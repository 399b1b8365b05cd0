/// Something a predicate can be evaluated against: a managed object, or a row snapshot
/// wrapped in ``RowEvaluationSubject``.
public protocol PredicateEvaluable {
    /// The object's ID (compared with `%@` objects and used by `SELF`).
    var evaluationObjectID: ObjectID? { get }
    /// The value of one key (not a path).
    /// - Throws: ``PredicateEvaluationError/unknownKey(_:entity:)`` for keys the entity lacks.
    func evaluationValue(forKey key: String) throws -> PredicateKeyValue
}
