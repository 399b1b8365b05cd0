/// Errors a store reports to the coordinator.
public enum IncrementalStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The save was refused because rows changed since the context read them; nothing
    /// was written.
    case conflicts([SaveConflict])
    /// An update or to-many lookup named an object the store does not have.
    case objectNotFound(ObjectID)
    /// An insert named an object the store already has.
    case duplicateObject(ObjectID)
    /// The store was written with another model version.
    case modelMismatch(storeHash: String, modelHash: String)
    /// A store-specific failure (I/O, corruption), with the cause and the fix.
    case storeFailure(String)

    /// A message naming the cause and the fix.
    public var description: String {
        switch self {
        case .conflicts(let cs): return "save conflicts on \(cs.count) object(s): " + cs.map(\.description).joined(separator: "; ") + "; refresh the objects or choose a merge policy"
        case .objectNotFound(let id): return "object \(id) is not in the store; it was deleted, refresh the context"
        case .duplicateObject(let id): return "object \(id) already exists in the store; obtain a new permanent ID"
        case .modelMismatch(let s, let m): return "store was written with model \(s.prefix(12))… but the model is \(m.prefix(12))…; open it with the matching model version or migrate"
        case .storeFailure(let m): return m
        }
    }
}
