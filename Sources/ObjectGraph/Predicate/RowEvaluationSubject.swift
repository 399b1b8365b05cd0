/// A row snapshot seen through the model, so predicates can run on rows (for stores
/// evaluating residual predicates, and for the in-memory store).
///
/// To-one key paths are followed through `row(_:)`; to-many ones through `toMany(_:_:)`.
public struct RowEvaluationSubject: PredicateEvaluable {
    /// The row being evaluated.
    public let snapshot: RowSnapshot
    private let model: ObjectModel
    private let rowLookup: (ObjectID) -> RowSnapshot?
    private let toManyLookup: (ObjectID, String) -> [ObjectID]
    private let deferredLookup: ((RowSnapshot, String) -> AttributeValue)?

    /// Wraps `snapshot`; `row` finds other rows by ID and `toMany` lists a to-many
    /// relationship's destinations, both used only when a key path crosses a relationship;
    /// `deferred` reads attributes a row left unloaded (``RowSnapshot/deferredAttributes``).
    public init(snapshot: RowSnapshot, model: ObjectModel,
                row: @escaping (ObjectID) -> RowSnapshot?,
                toMany: @escaping (ObjectID, String) -> [ObjectID],
                deferred: ((RowSnapshot, String) -> AttributeValue)? = nil) {
        self.snapshot = snapshot
        self.model = model
        self.rowLookup = row
        self.toManyLookup = toMany
        self.deferredLookup = deferred
    }

    /// The row's object ID.
    public var evaluationObjectID: ObjectID? { snapshot.objectID }

    private func wrap(_ id: ObjectID) -> PredicateKeyValue {
        guard let row = rowLookup(id) else { return .toOneReference(id) }
        return .toOne(RowEvaluationSubject(snapshot: row, model: model, row: rowLookup, toMany: toManyLookup, deferred: deferredLookup))
    }

    /// Attribute values from the row, relationships through the lookups.
    public func evaluationValue(forKey key: String) throws -> PredicateKeyValue {
        let entityName = snapshot.objectID.entityName
        guard let entity = model.entity(named: entityName) else { throw PredicateEvaluationError.unknownKey(key, entity: entityName) }
        if entity.attribute(named: key) != nil {
            if snapshot.deferredAttributes.contains(key), let load = deferredLookup { return .attribute(load(snapshot, key)) }
            return .attribute(snapshot.attributes[key] ?? .null)
        }
        guard let rel = entity.relationship(named: key) else { throw PredicateEvaluationError.unknownKey(key, entity: entityName) }
        if rel.isToMany {
            let ids = toManyLookup(snapshot.objectID, key)
            return .toMany(ids.compactMap { id in
                rowLookup(id).map { RowEvaluationSubject(snapshot: $0, model: model, row: rowLookup, toMany: toManyLookup, deferred: deferredLookup) }
            })
        }
        guard let dest = snapshot.toOne[key] else { return .toOne(nil) }
        return wrap(dest)
    }
}
