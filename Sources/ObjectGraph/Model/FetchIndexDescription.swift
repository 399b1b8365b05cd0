/// A `<fetchIndex>` declared on an entity: a compound index stores may build.
public struct FetchIndexDescription: Sendable, Hashable {
    /// One property of the index with its direction.
    public struct Element: Sendable, Hashable {
        /// The indexed property's name.
        public let property: String
        /// Whether the index orders this property ascending.
        public let ascending: Bool
    }
    /// The index's name.
    public let name: String
    /// The indexed properties, most significant first.
    public let elements: [Element]
}
