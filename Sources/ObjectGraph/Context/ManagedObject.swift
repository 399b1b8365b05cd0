public import Foundation
import Observation

/// One object of the graph, living in exactly one ``ObjectContext``.
///
/// Values are read and written by key with type checking against the model. A fetched or
/// referenced object starts as a *fault*: its row loads on first access, and each to-many
/// relationship loads separately on first access. Setting a relationship keeps its inverse
/// up to date (the primitive setters, ``setPrimitiveObjectID(_:forKey:)`` and
/// ``setPrimitiveObjectIDs(_:forKey:)``, leave it to a bulk writer). Managed objects are not `Sendable`: they stay with their context, in
/// its isolation domain; pass ``objectID`` between contexts.
public final class ManagedObject: Hashable, CustomStringConvertible {
    /// A pending (unsaved) value of one property.
    enum PendingValue: Equatable {
        case attribute(AttributeValue)
        case toOne(ObjectID?)
        case toMany([ObjectID])
    }

    /// The object's entity.
    public let entity: EntityDescription
    /// The object's ID: temporary until the first save, permanent after.
    public internal(set) var objectID: ObjectID
    weak var contextStorage: ObjectContext?
    /// Who observes which property (see `ManagedObject+Observation.swift`).
    let observationRegistrar = ObservationRegistrar()

    /// The last persisted row (nil: fault, or never saved).
    var baseline: RowSnapshot?
    /// Unsaved values by property.
    var pending: [String: PendingValue] = [:] {
        didSet { if !memberIndex.isEmpty { memberIndex = [:] } }
    }
    /// The members of large pending to-many arrays, kept by ``appendToMany(_:_:)`` so that
    /// linking thousands of objects to one (a type with 20,000 recipes) stays linear. Any
    /// other change to `pending` drops it.
    private var memberIndex: [String: Set<ObjectID>] = [:]
    /// Persisted to-many destinations loaded so far.
    var toManyBaseline: [String: [ObjectID]] = [:]
    /// Values of transient attributes (never saved, not counted as changes).
    var transientValues: [String: AttributeValue] = [:]
    var insertedFlag = false
    var deletedFlag = false
    var insertionSequence = 0

    init(entity: EntityDescription, objectID: ObjectID, context: ObjectContext) {
        self.entity = entity
        self.objectID = objectID
        self.contextStorage = context
    }

    /// The context the object belongs to (`nil` after its deletion was saved).
    public var managedObjectContext: ObjectContext? { contextStorage }
    /// Whether the object's values have not been loaded yet.
    public var isFault: Bool { contextStorage?.entering { baseline == nil && !insertedFlag } ?? true }
    /// Whether the object was inserted and not saved yet.
    public var isInserted: Bool { contextStorage?.entering { insertedFlag && !deletedFlag } ?? false }
    /// Whether the object was deleted and the deletion not saved yet.
    public var isDeleted: Bool { contextStorage?.entering { deletedFlag } ?? false }
    /// Whether the object has unsaved changes to its persisted properties.
    public var isUpdated: Bool { contextStorage?.entering { !insertedFlag && !deletedFlag && !pending.isEmpty } ?? false }
    /// Whether the object is inserted, deleted or updated.
    public var hasChanges: Bool { contextStorage?.entering { insertedFlag || deletedFlag || !pending.isEmpty } ?? false }
    /// The changed attribute values (relationships excluded).
    public var changedAttributeValues: [String: AttributeValue] {
        contextStorage?.entering { pendingAttributes } ?? [:]
    }
    var pendingAttributes: [String: AttributeValue] {
        pending.compactMapValues { if case .attribute(let v) = $0 { return v } else { return nil } }
    }
    /// Names of the properties changed since the last save.
    public var changedKeys: Set<String> { contextStorage?.entering { Set(pending.keys) } ?? [] }

    func context() throws -> ObjectContext {
        guard let c = contextStorage else { throw ObjectGraphError.objectNotFound(objectID) }
        return c
    }

    // MARK: State access

    func fireFault() throws {
        guard baseline == nil, !insertedFlag else { return }
        guard let row = try context().coordinator.snapshot(for: objectID) else { throw ObjectGraphError.objectNotFound(objectID) }
        baseline = row
    }

    /// Whether the object is not in the store: not inserted here and its row not found, as a
    /// destination that has not replicated yet (a recipe can arrive before its image), or one
    /// deleted underneath. Fires the fault of one that is there.
    func checkMissingFromStore() throws -> Bool {
        do {
            try fireFault()
            return false
        } catch ObjectGraphError.objectNotFound, ObjectGraphError.store(.objectNotFound) {
            return true
        }
    }

    func currentAttribute(_ name: String) throws -> AttributeValue {
        if case .attribute(let v)? = pending[name] { return v }
        if entity.attribute(named: name)?.isTransient == true { return transientValues[name] ?? .null }
        try fireFault()
        if let row = baseline, row.deferredAttributes.contains(name) {
            let value = try context().coordinator.deferredAttribute(name, of: objectID, version: row.version)
            if baseline?.version == row.version {
                baseline?.attributes[name] = value
                baseline?.deferredAttributes.remove(name)
            }
            return value
        }
        return baseline?.attributes[name] ?? .null
    }

    func currentToOne(_ name: String) throws -> ObjectID? {
        if case .toOne(let v)? = pending[name] { return v }
        try fireFault()
        return baseline?.toOne[name]
    }

    /// The persisted destinations of a to-many relationship, loaded on first use. With
    /// `lenient`, a row deleted in the store reads as empty instead of throwing (used while
    /// saving, so the store can report the deletion as a conflict).
    func persistedToMany(_ name: String, lenient: Bool = false) throws -> [ObjectID] {
        if let ids = toManyBaseline[name] { return ids }
        let ids: [ObjectID]
        do {
            ids = insertedFlag ? [] : try context().coordinator.toManyDestinations(of: objectID, relationship: name)
        } catch ObjectGraphError.store(.objectNotFound) where lenient {
            return []
        } catch ObjectGraphError.store(.objectNotFound) {
            throw ObjectGraphError.objectNotFound(objectID)
        }
        toManyBaseline[name] = ids
        return ids
    }

    func currentToMany(_ name: String, lenient: Bool = false) throws -> [ObjectID] {
        if case .toMany(let v)? = pending[name] { return v }
        return try persistedToMany(name, lenient: lenient)
    }

    /// Adds `id` at the end of a to-many relationship's unsaved value unless it is there
    /// already (no inverse maintenance); returns whether it was added. The array is taken out
    /// of `pending` while it grows, so appending does not copy it.
    @discardableResult
    func appendToMany(_ name: String, _ id: ObjectID) throws -> Bool {
        try fireFault()
        var ids: [ObjectID]
        var members = memberIndex[name]
        if case .toMany(let pendingIDs)? = pending[name] {
            if isMember(id, of: pendingIDs, members: &members) { return false }
            pending[name] = nil
            ids = pendingIDs
        } else {
            ids = try persistedToMany(name)
            members = nil
            if isMember(id, of: ids, members: &members) { return false }
        }
        ids.append(id)
        members?.insert(id)
        notifyingChange(of: name) { pending[name] = .toMany(ids) }
        if let members { memberIndex[name] = members }
        try context().markDirty(self)
        return true
    }

    /// Whether `id` is in `ids`: a linear search for short arrays, a set built once for long ones.
    private func isMember(_ id: ObjectID, of ids: [ObjectID], members: inout Set<ObjectID>?) -> Bool {
        if members == nil, ids.count >= 64 { members = Set(ids) }
        return members?.contains(id) ?? ids.contains(id)
    }

    /// Records a new value without inverse maintenance.
    func primitiveSet(_ name: String, _ value: PendingValue) throws {
        try fireFault()
        notifyingChange(of: name) { pending[name] = value }
        try context().markDirty(self)
    }

    // MARK: Public key-value access

    private func attributeDescription(_ key: String) throws -> AttributeDescription {
        guard let a = entity.attribute(named: key) else {
            throw ObjectGraphError.unknownProperty(entity: entity.name, key: key, expected: "an attribute")
        }
        return a
    }

    func relationshipDescription(_ key: String, toMany: Bool) throws -> RelationshipDescription {
        guard let r = entity.relationship(named: key), r.isToMany == toMany else {
            throw ObjectGraphError.unknownProperty(entity: entity.name, key: key, expected: toMany ? "a to-many relationship" : "a to-one relationship")
        }
        return r
    }

    /// The value of an attribute (pending change, else persisted value; fires the fault).
    public func value(forKey key: String) throws -> AttributeValue {
        recordAccess(key)
        let ctx = try context()
        return try ctx.entering {
            _ = try attributeDescription(key)
            return try currentAttribute(key)
        }
    }

    /// Sets an attribute. The value must fit the attribute's type (integers convert to
    /// floating-point and decimal attributes; integers must fit the width).
    /// - Throws: ``ObjectGraphError/typeMismatch(entity:key:expected:got:)``.
    public func setValue(_ value: AttributeValue, forKey key: String) throws {
        let ctx = try context()
        try ctx.entering {
            let a = try attributeDescription(key)
            guard let v = a.type.coerce(value) else {
                throw ObjectGraphError.typeMismatch(entity: entity.name, key: key, expected: a.type, got: value.kindName)
            }
            if a.isTransient { notifyingChange(of: key) { transientValues[key] = v }; return }
            try primitiveSet(key, .attribute(v))
        }
    }

    /// The string value of an attribute, or `nil`.
    public func string(_ key: String) throws -> String? { try value(forKey: key).stringValue }
    /// The integer value of an attribute, or `nil`.
    public func int(_ key: String) throws -> Int64? { try value(forKey: key).int64Value }
    /// The date value of an attribute, or `nil`.
    public func date(_ key: String) throws -> Date? { try value(forKey: key).dateValue }
    /// The binary value of an attribute, or `nil`.
    public func data(_ key: String) throws -> Data? { try value(forKey: key).dataValue }

    /// The destination of a to-one relationship, or `nil`. A destination the store does not
    /// hold (it has not replicated yet) reads as `nil` while the reference itself is kept: a
    /// save leaves it untouched, and once the destination arrives it reads as usual.
    public func object(forKey key: String) throws -> ManagedObject? {
        recordAccess(key)
        let ctx = try context()
        return try ctx.entering {
            _ = try relationshipDescription(key, toMany: false)
            guard let id = try currentToOne(key) else { return nil }
            let destination = try ctx.object(with: id)
            return try destination.checkMissingFromStore() ? nil : destination
        }
    }

    /// Sets a to-one relationship and updates the inverse on the old and new destinations.
    public func setObject(_ object: ManagedObject?, forKey key: String) throws {
        let ctx = try context()
        try ctx.entering {
            let rel = try relationshipDescription(key, toMany: false)
            if let current = try currentToOne(key) {
                if current == object?.objectID { return }
                try ctx.unlink(self, rel, try ctx.object(with: current))
            }
            if let object { try ctx.link(self, rel, object) }
        }
    }

    /// The destinations of a to-many relationship (loaded on first access).
    public func objects(forKey key: String) throws -> [ManagedObject] {
        recordAccess(key)
        let ctx = try context()
        return try ctx.entering {
            _ = try relationshipDescription(key, toMany: true)
            return try currentToMany(key).map { try ctx.object(with: $0) }
        }
    }

    /// The destination IDs of a relationship (to-one: zero or one), without faulting them.
    public func objectIDs(forKey key: String) throws -> [ObjectID] {
        recordAccess(key)
        let ctx = try context()
        return try ctx.entering {
            guard let rel = entity.relationship(named: key) else {
                throw ObjectGraphError.unknownProperty(entity: entity.name, key: key, expected: "a relationship")
            }
            return rel.isToMany ? try currentToMany(key) : (try currentToOne(key)).map { [$0] } ?? []
        }
    }

    /// Adds an object to a to-many relationship (and sets the inverse).
    public func addObject(_ object: ManagedObject, toKey key: String) throws {
        let ctx = try context()
        try ctx.entering {
            let rel = try relationshipDescription(key, toMany: true)
            try ctx.link(self, rel, object)
        }
    }

    /// Removes an object from a to-many relationship (and clears the inverse).
    public func removeObject(_ object: ManagedObject, fromKey key: String) throws {
        let ctx = try context()
        try ctx.entering {
            let rel = try relationshipDescription(key, toMany: true)
            try ctx.unlink(self, rel, object)
        }
    }

    /// Replaces a to-many relationship's destinations, maintaining inverses.
    public func setObjects(_ objects: [ManagedObject], forKey key: String) throws {
        let ctx = try context()
        try ctx.entering {
            let rel = try relationshipDescription(key, toMany: true)
            let wanted = Set(objects.map(\.objectID))
            for id in try currentToMany(key) where !wanted.contains(id) { try ctx.unlink(self, rel, try ctx.object(with: id)) }
            for o in objects { try ctx.link(self, rel, o) }
        }
    }

    /// Objects are equal only to themselves (one instance per ID per context).
    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }
    /// Hashes by identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    /// `<Entity objectID>`.
    public var description: String { "<\(entity.name) \(objectID)>" }
}

extension ManagedObject: PredicateEvaluable {
    /// The object's ID.
    public var evaluationObjectID: ObjectID? { objectID }

    /// Current (pending or persisted) values, relationships as managed objects.
    public func evaluationValue(forKey key: String) throws -> PredicateKeyValue {
        let ctx = try context()
        return try ctx.entering {
            if entity.attribute(named: key) != nil { return .attribute(try currentAttribute(key)) }
            guard let rel = entity.relationship(named: key) else { throw PredicateEvaluationError.unknownKey(key, entity: entity.name) }
            if rel.isToMany { return .toMany(try currentToMany(key).map { try ctx.object(with: $0) }) }
            return .toOne(try currentToOne(key).map { try ctx.object(with: $0) })
        }
    }
}

extension ManagedObject: PredicateArgument {
    /// A reference to this object (its ID).
    public var predicateExpression: PredicateExpression { .object(objectID) }
}
