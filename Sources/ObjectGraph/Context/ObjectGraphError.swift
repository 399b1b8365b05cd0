/// Errors of contexts and managed objects; each message names the cause and the fix.
public indirect enum ObjectGraphError: Error, Sendable, CustomStringConvertible {
    /// The entity is not in the model.
    case unknownEntity(String)
    /// The entity is abstract and cannot be inserted.
    case abstractEntity(String)
    /// The key is not a property of the entity (or not of the kind asked for).
    case unknownProperty(entity: String, key: String, expected: String)
    /// The value does not fit the attribute's type.
    case typeMismatch(entity: String, key: String, expected: AttributeType, got: String)
    /// A relationship was given an object of the wrong entity.
    case wrongDestination(entity: String, key: String, expected: String, got: String)
    /// The object belongs to another context (or to none).
    case differentContext(ObjectID)
    /// The object does not exist in the store (deleted underneath).
    case objectNotFound(ObjectID)
    /// A delete rule `deny` refused the deletion.
    case deleteDenied(object: ObjectID, relationship: String, destinations: [ObjectID])
    /// Validation failed on save; every failing object and property is listed.
    case validation([ValidationFailure])
    /// Save conflicts the merge policy did not resolve.
    case mergeConflicts([SaveConflict])
    /// The store failed.
    case store(IncrementalStoreError)
    /// A typed view (an ``EntityObject``) was asked to wrap an object of another entity.
    case wrongEntity(expected: String, got: String)
    /// A required attribute was read through a typed view while it had no value (an object
    /// inserted and not filled in yet, or a document written without it).
    case missingValue(entity: String, key: String)
    /// A property read or write through a generated type (which never throws) failed
    /// earlier; the context keeps the failure and its next save or fetch throws it.
    case deferredAccessFailure(object: ObjectID, key: String, cause: ObjectGraphError)

    /// A message naming the cause and the fix.
    public var description: String {
        switch self {
        case .unknownEntity(let e): return "entity \"\(e)\" is not in the model; check the name"
        case .abstractEntity(let e): return "entity \"\(e)\" is abstract; insert one of its sub-entities"
        case .unknownProperty(let e, let k, let x): return "\"\(k)\" is not \(x) of entity \"\(e)\"; check the key"
        case .typeMismatch(let e, let k, let t, let g): return "\(e).\(k) is \(t.rawValue) but got a \(g) value; convert the value"
        case .wrongDestination(let e, let k, let x, let g): return "\(e).\(k) points to \(x) but got a \(g); pass an object of the destination entity"
        case .differentContext(let id): return "object \(id) belongs to another context; fetch it in this context with object(with:)"
        case .objectNotFound(let id): return "object \(id) no longer exists in the store; refresh or drop the reference"
        case .deleteDenied(let o, let r, let d): return "cannot delete \(o): relationship \"\(r)\" has delete rule Deny and still holds \(d.count) object(s); empty it first"
        case .validation(let fs): return "validation failed for \(fs.count) propert\(fs.count == 1 ? "y" : "ies"): " + fs.map(\.description).joined(separator: "; ")
        case .mergeConflicts(let cs): return "save conflicts: " + cs.map(\.description).joined(separator: "; ") + "; refresh the objects and retry, or set a merge policy"
        case .store(let e): return e.description
        case .wrongEntity(let x, let g): return "expected an object of entity \"\(x)\" but got one of \"\(g)\"; wrap it in the type generated for \"\(g)\""
        case .missingValue(let e, let k): return "\(e).\(k) is required but has no value; set it before reading it"
        case .deferredAccessFailure(let id, let k, let cause): return "an earlier access to \"\(k)\" of \(id) failed: \(cause)"
        }
    }
}
