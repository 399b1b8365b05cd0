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
