public import Foundation

extension FetchSortDescriptor {
    /// The store's sort descriptor for a Foundation `SortDescriptor` over a generated entity
    /// type, so a typed fetch is sorted by the store (and its indexes) as a string-keyed
    /// one is: `SortDescriptor(\Note.title, order: .reverse)` is `title DESC`.
    ///
    /// Strings compare lexically (`.lexical`, or the default of a key-path descriptor);
    /// Apple's `.localizedStandard` comparator sorts ignoring case and diacritics. For a
    /// case-insensitive order where Foundation offers no such comparator (Linux), build
    /// the ``FetchSortDescriptor`` itself with ``init(_:ascending:caseInsensitive:diacriticInsensitive:)``.
    ///
    /// - Throws: ``TypedQueryError/unsupportedSortDescriptor(sort:reason:)`` for a descriptor
    ///   made from a comparator rather than a key path, a key path that is not one of the
    ///   type's ``EntityObject/propertyKeys`` (a chain such as `\.folder?.name` included:
    ///   use `FetchSortDescriptor("folder.name")`), or a string comparator the store cannot
    ///   reproduce.
    public init<T: EntityObject>(_ sort: SortDescriptor<T>) throws(TypedQueryError) {
        guard let keyPath = sort.keyPath else {
            throw .unsupportedSortDescriptor(sort: String(describing: sort), reason: "it compares with a comparator, not a key path; sort by a key path of a stored property")
        }
        guard let name = T.propertyKeys[keyPath] else {
            throw .unsupportedSortDescriptor(sort: keyPath.debugDescription, reason: "the key path is not one of \(T.self).propertyKeys; sort by a stored property, or through a relationship with FetchSortDescriptor(\"relationship.property\")")
        }
        var caseInsensitive = false, diacriticInsensitive = false
        if let comparator = sort.stringComparator {
            let forward = String.StandardComparator(comparator, order: .forward)
            if forward == .lexical {
                // Unicode order, as the store's plain string sort.
            } else {
                #if canImport(Darwin)
                if forward == .localizedStandard {
                    caseInsensitive = true
                    diacriticInsensitive = true
                } else {
                    throw .unsupportedSortDescriptor(sort: keyPath.debugDescription, reason: "its string comparator is neither .lexical nor .localizedStandard")
                }
                #else
                throw .unsupportedSortDescriptor(sort: keyPath.debugDescription, reason: "its string comparator is not .lexical")
                #endif
            }
        }
        self.init(name, ascending: sort.order == .forward, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive)
    }
}
