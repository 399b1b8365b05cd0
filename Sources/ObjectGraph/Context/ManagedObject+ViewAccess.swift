/// The non-throwing property access of the generated entity types (``EntityObject``), the
/// way SwiftData and Core Data's generated classes read: `recipe.name`, `recipe.type = soup`.
///
/// Nothing here traps or throws. A read whose fault cannot be fulfilled (the object was
/// deleted elsewhere) gives the last value the context knew, or the type's empty value
/// (``AttributeConvertible/unsetValue``) when it knew none; a write that cannot be made
/// (an object from another context, an object whose context is gone) is dropped. Either
/// failure is kept by the context and thrown, as
/// ``ObjectGraphError/deferredAccessFailure(object:key:cause:)``, by its next
/// ``ObjectContext/save()`` or fetch, so it is never lost. A required property left unset
/// fails that save's validation, naming the entity and the property.
extension ManagedObject {
    /// The attribute's value as `Value`: `nil` when it has none.
    public func attributeValue<Value: AttributeConvertible>(_ key: String, as type: Value.Type) -> Value? {
        deferring(key, otherwise: lastKnownAttribute(key).flatMap(Value.init(attributeValue:))) {
            try value(forKey: key, as: type)
        }
    }

    /// The value of a required attribute as `Value`; ``AttributeConvertible/unsetValue`` while
    /// it has none (the save that follows fails validation unless it is set).
    public func requiredAttributeValue<Value: AttributeConvertible>(_ key: String, as type: Value.Type) -> Value {
        attributeValue(key, as: type) ?? Value.unsetValue
    }

    /// Sets an attribute from a Swift value; `nil` clears it.
    public func setAttributeValue<Value: AttributeConvertible>(_ value: Value?, _ key: String) {
        deferring(key, otherwise: ()) { try setValue(value?.attributeValue ?? .null, forKey: key) }
    }

    /// The destination of a to-one relationship; `nil` when it has none, or when the store
    /// does not hold it yet (a partial replication; the reference is kept).
    public func destination(_ key: String) -> ManagedObject? {
        deferring(key, otherwise: nil) { try object(forKey: key) }
    }

    /// Sets a to-one relationship (and the inverse on the old and new destinations).
    public func setDestination(_ object: ManagedObject?, _ key: String) {
        deferring(key, otherwise: ()) { try setObject(object, forKey: key) }
    }

    /// The destinations of a to-many relationship, in the relationship's order (as faults;
    /// ``isMissingFromStore`` tells one that has not replicated yet).
    public func destinations(_ key: String) -> [ManagedObject] {
        deferring(key, otherwise: []) { try objects(forKey: key) }
    }

    /// Replaces a to-many relationship's destinations (inverses follow).
    public func setDestinations(_ objects: [ManagedObject], _ key: String) {
        deferring(key, otherwise: ()) { try setObjects(objects, forKey: key) }
    }

    /// Adds `object` to a to-many relationship (at the end of an ordered one; the inverse follows).
    public func addDestination(_ object: ManagedObject, _ key: String) {
        deferring(key, otherwise: ()) { try addObject(object, toKey: key) }
    }

    /// Removes `object` from a to-many relationship (the inverse follows).
    public func removeDestination(_ object: ManagedObject, _ key: String) {
        deferring(key, otherwise: ()) { try removeObject(object, fromKey: key) }
    }

    /// `body`'s result; when it throws, the failure is kept for the context's next save or
    /// fetch and `fallback` stands in.
    private func deferring<T>(_ key: String, otherwise fallback: @autoclosure () -> T, _ body: () throws -> T) -> T {
        do {
            return try body()
        } catch {
            deferFailure(error, key: key)
            return fallback()
        }
    }

    /// Whether the object is neither inserted in its context nor held by the store: a
    /// destination that has not replicated yet, or one deleted elsewhere. Loads its values
    /// when it is there.
    public var isMissingFromStore: Bool {
        guard let context = managedObjectContext else { return true }
        return (try? context.entering { try checkMissingFromStore() }) ?? true
    }

    /// The value last known for `key` (a change not saved, else the loaded row), without
    /// going to the store.
    private func lastKnownAttribute(_ key: String) -> AttributeValue? {
        if case .attribute(let v)? = pending[key] { return v }
        return transientValues[key] ?? baseline?.attributes[key]
    }

    /// Keeps `error` for the context's next save or fetch.
    private func deferFailure(_ error: any Error, key: String) {
        let cause = (error as? ObjectGraphError) ?? .store(.storeFailure(error))
        managedObjectContext?.deferFailure(.deferredAccessFailure(object: objectID, key: key, cause: cause))
    }
}
