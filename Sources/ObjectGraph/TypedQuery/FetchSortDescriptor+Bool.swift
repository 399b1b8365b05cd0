public import Foundation

extension FetchSortDescriptor {
    /// The store's sort descriptor for a Boolean attribute of a generated entity type, by key
    /// path: Foundation's `SortDescriptor` cannot take one (`Bool` is not `Comparable`), so
    /// without this a typed sort by a flag falls back to a string key.
    ///
    /// ```swift
    /// let pinnedFirst = try FetchSortDescriptor(\Note.pinned, order: .reverse)   // pinned DESC
    /// let notes = try Note.fetch(in: context, sortedBy: [pinnedFirst, try FetchSortDescriptor(SortDescriptor(\Note.text))])
    /// ```
    ///
    /// The key path resolves to the model key through the type's
    /// ``EntityObject/propertyKeys``, so the store runs exactly the request the string key
    /// gives (`FetchSortDescriptor("pinned", ascending: false)`), indexes included. In the
    /// forward order `false` comes before `true`; `.reverse` puts `true` first.
    /// - Throws: ``TypedQueryError/unsupportedSortDescriptor(sort:reason:)`` for a key path
    ///   that is not one of the type's ``EntityObject/propertyKeys`` (a computed property, or a
    ///   chain through a relationship: use `FetchSortDescriptor("relationship.flag")`).
    public init<T: EntityObject>(_ keyPath: KeyPath<T, Bool>, order: SortOrder = .forward) throws(TypedQueryError) {
        try self.init(booleanKeyPath: keyPath, order: order)
    }

    /// The store's sort descriptor for an optional Boolean attribute, by key path, as for a
    /// non-optional one; objects without a value sort before `false` in the forward order, as
    /// the store sorts `nil`.
    /// - Throws: ``TypedQueryError/unsupportedSortDescriptor(sort:reason:)`` as for a
    ///   non-optional attribute.
    public init<T: EntityObject>(_ keyPath: KeyPath<T, Bool?>, order: SortOrder = .forward) throws(TypedQueryError) {
        try self.init(booleanKeyPath: keyPath, order: order)
    }

    /// The descriptor for `keyPath`, resolved through `T.propertyKeys`.
    private init<T: EntityObject>(booleanKeyPath keyPath: PartialKeyPath<T>, order: SortOrder) throws(TypedQueryError) {
        guard let name = T.propertyKeys[keyPath] else {
            throw .unsupportedSortDescriptor(sort: keyPath.debugDescription, reason: "the key path is not one of \(T.self).propertyKeys; sort by a stored Boolean attribute, or through a relationship with FetchSortDescriptor(\"relationship.attribute\")")
        }
        self.init(name, ascending: order == .forward)
    }
}
