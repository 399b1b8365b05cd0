public import DocumentStore

/// Errors of the document-backed incremental store; each names the cause and the fix.
public enum DocumentIncrementalStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store was written with a model this one cannot be migrated from.
    case incompatibleModel(entity: String, property: String, reason: String)
    /// The `CDTISMetaData` document was written by another app (the original incremental
    /// store's layout) for a model that differs from this one; the first difference.
    case foreignModel(ModelDifference)
    /// The metadata document is not in the expected shape.
    case invalidMetadata(String)
    /// A datastore operation failed; the datastore's error, kept so callers can switch on it.
    case datastore(DocumentStoreError)

    /// A message naming the cause and the fix.
    public var description: String {
        switch self {
        case .incompatibleModel(let e, let p, let r):
            return "the store cannot be opened with this model: entity \(e), property \(p): \(r); open it with the model version that wrote it, or add a renaming identifier / make the property optional"
        case .foreignModel(let difference):
            return "the store's CDTISMetaData document was written by another app for a different model (\(difference)); sync this store only with databases of apps using the same model, or open it with the model version that app uses"
        case .invalidMetadata(let m):
            return "the store's CDTISMetaData document is invalid (\(m)); restore it from a replica or delete it to rewrite it from the model"
        case .datastore(let m):
            return "datastore failure: \(m.description)"
        }
    }
}
