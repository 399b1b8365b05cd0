/// Errors a store reports to the coordinator.
///
/// A failure of the store's own machinery keeps its cause: ``storeFailure(_:)`` carries the
/// store's error as it was thrown, so a caller above the object graph can switch on it
/// (`case .storeFailure(let cause as DocumentStoreError)`) without the object graph knowing
/// the store's types.
public enum IncrementalStoreError: Error, Sendable, CustomStringConvertible {
    /// The save was refused because rows changed since the context read them; nothing
    /// was written.
    case conflicts([SaveConflict])
    /// An update or to-many lookup named an object the store does not have.
    case objectNotFound(ObjectID)
    /// An insert named an object the store already has.
    case duplicateObject(ObjectID)
    /// The store was written with another model version.
    case modelMismatch(storeHash: String, modelHash: String)
    /// The store was used before a coordinator loaded it (``IncrementalStore/loadMetadata(for:)``).
    case notLoaded
    /// A row named an entity the loaded model does not have.
    case unknownEntity(String)
    /// The store's own machinery failed (I/O, corruption); the store's error, whose
    /// message names the cause and the fix.
    case storeFailure(any Error & Sendable)

    /// A message naming the cause and the fix.
    public var description: String {
        switch self {
        case .conflicts(let cs): return "save conflicts on \(cs.count) object(s): " + cs.map(\.description).joined(separator: "; ") + "; refresh the objects or choose a merge policy"
        case .objectNotFound(let id): return "object \(id) is not in the store; it was deleted, refresh the context"
        case .duplicateObject(let id): return "object \(id) already exists in the store; obtain a new permanent ID"
        case .modelMismatch(let s, let m): return "store was written with model \(s.prefix(12))… but the model is \(m.prefix(12))…; open it with the matching model version or migrate"
        case .notLoaded: return "the store is not loaded; add it to a coordinator first"
        case .unknownEntity(let name): return "unknown entity \(name)"
        case .storeFailure(let cause): return "datastore: \(cause)"
        }
    }
}
