/// A typed view of the objects of one entity: the shape of the types the `EntityCodegen`
/// build plugin generates from a model, one per entity.
///
/// A view is a small struct around its ``ManagedObject``: it lives in that object's context
/// as the object does (pass ``objectID`` between contexts), reads fire the object's fault and
/// may throw, and writes are checked against the model and reach the store on save. The
/// generated type supplies the entity's name and its typed properties; the members shared by
/// every entity (insert, fetch, delete, the checked initializer) are written once, here.
public protocol EntityObject: Hashable {
    /// The entity's name in the model.
    static var entityName: String { get }
    /// The managed object behind the view.
    var object: ManagedObject { get }
    /// Views `object` without checking its entity (for objects known to be of this entity,
    /// such as the destinations of a relationship).
    init(unchecked object: ManagedObject)
    /// The model name of each stored property a key path of this type reads (`\Recipe.name`
    /// → `"name"`, `\Recipe.type` → `"type"`): how typed predicates and sort descriptors
    /// become the store's queries. The generated types list every attribute and
    /// relationship.
    static var propertyKeys: [PartialKeyPath<Self>: String] { get }
    /// The `Sendable` copy of this entity's stored values (the generated types have their
    /// own; a hand-written view gets the row itself).
    associatedtype Snapshot: EntitySnapshot = RowSnapshot
}

extension EntityObject {
    /// No key path names a property (hand-written views that are not queried by key path).
    public static var propertyKeys: [PartialKeyPath<Self>: String] { [:] }

    /// Views `object`, which must be of this entity or one of its sub-entities.
    /// - Throws: ``ObjectGraphError/wrongEntity(expected:got:)`` for an object of another entity.
    public init(_ object: ManagedObject) throws(ObjectGraphError) {
        guard Self.isKind(object.entity, in: object.managedObjectContext?.model) else {
            throw .wrongEntity(expected: Self.entityName, got: object.entity.name)
        }
        self.init(unchecked: object)
    }

    /// Whether `entity` is this view's entity or one of its sub-entities.
    private static func isKind(_ entity: EntityDescription, in model: ObjectModel?) -> Bool {
        guard let model, let mine = model.entity(named: entityName) else { return entity.name == entityName }
        return model.entity(entity, isKindOf: mine)
    }

    /// The object's identity across contexts.
    public var objectID: ObjectID { object.objectID }

    /// Inserts a new object of this entity into `context`, with the model's default values
    /// and a store-chosen ID, or `id` when given (see ``ObjectContext/insert(_:id:)``).
    public static func insert(into context: ObjectContext, id: String? = nil) throws -> Self {
        Self(unchecked: try context.insert(entityName, id: id))
    }

    /// The objects of this entity (sub-entities included) in `context` that match
    /// `predicate` (all when `nil`), in the order of `sortDescriptors` (store order when empty):
    /// at most `limit` of them (all when `nil`), after skipping the first `offset`, so a list
    /// is read a page at a time.
    public static func fetch(in context: ObjectContext, where predicate: ObjectPredicate? = nil,
                             sortedBy sortDescriptors: [FetchSortDescriptor] = [],
                             limit: Int? = nil, offset: Int = 0) throws -> [Self] {
        var request = FetchRequest(entityName: entityName, predicate: predicate, sortDescriptors: sortDescriptors)
        request.fetchLimit = limit
        request.fetchOffset = offset
        return try context.fetch(request).map(Self.init(unchecked:))
    }

    /// How many objects of this entity (sub-entities included) in `context` match `predicate`
    /// (all when `nil`), counted by the store without making objects of them.
    public static func count(in context: ObjectContext, where predicate: ObjectPredicate? = nil) throws -> Int {
        try context.count(for: FetchRequest(entityName: entityName, predicate: predicate))
    }

    /// Deletes the object from its context, applying the model's delete rules; the deletion
    /// reaches the store when the context saves.
    /// - Throws: ``ObjectGraphError/objectNotFound(_:)`` when the object has no context any
    ///   more, or what ``ObjectContext/delete(_:)`` throws.
    public func delete() throws {
        guard let context = object.managedObjectContext else { throw ObjectGraphError.objectNotFound(objectID) }
        try context.delete(object)
    }
}
