/// What a store records about itself: its identity and the model it was written with.
public struct StoreMetadata: Sendable, Hashable {
    /// A unique, stable identifier of the store (chosen when the store is created).
    public var storeIdentifier: String
    /// The `ObjectModel.versionHash` of the model the store's rows were written with.
    public var modelVersionHash: String
    /// Per-entity version hashes of that model, for migration decisions.
    public var entityVersionHashes: [String: String]
    /// Store-specific extra entries.
    public var extra: [String: String]

    /// Creates metadata.
    public init(storeIdentifier: String, modelVersionHash: String, entityVersionHashes: [String: String], extra: [String: String] = [:]) {
        self.storeIdentifier = storeIdentifier
        self.modelVersionHash = modelVersionHash
        self.entityVersionHashes = entityVersionHashes
        self.extra = extra
    }
}
