/// What a ``LiveFetch`` compares to tell that a result object was updated: the values of
/// the attributes and relationships the request fetches (all attributes and to-one
/// relationships when it names none; to-many relationships only when it names them).
/// An attribute the store left deferred is stood for by the row version.
struct FetchedValues: Hashable, Sendable {
    var attributes: [String: AttributeValue]
    var toOne: [String: ObjectID]
    var toMany: [String: [ObjectID]]
    var deferredVersion: RowVersion?
}
