public import Foundation

extension ObjectPredicate {
    /// The store's predicate for a typed `#Predicate` over a generated entity type, so a
    /// typed fetch is pushed down to the store (and served by its indexes) exactly as the
    /// equivalent format string is.
    ///
    /// Key paths become the model names of ``EntityObject/propertyKeys``; optional chaining
    /// through to-one relationships (`$0.folder?.name`) becomes a dotted key path
    /// (`folder.name`) and `contains(where:)` over a to-many relationship becomes `ANY`.
    /// Supported: `==`, `!=`, `<`, `<=`, `>`, `>=`, comparisons with `nil` and with entity
    /// objects (`$0.folder?.objectID == id`, `$0.folder == nil`), `array.contains($0.key)` (`IN`), `range.contains($0.key)` (`BETWEEN`, or
    /// `>=` and `<` for a half-open range), `contains(_:)` and `starts(with:)` on strings
    /// (`CONTAINS`, `BEGINSWITH`) and their case- and diacritic-insensitive forms
    /// `localizedStandardContains(_:)` and `starts(with:)` a ``LocalizedStandardPrefix`` (`[cd]`),
    /// `count` and `isEmpty` of a to-many relationship (`@count`), Boolean attributes as
    /// conditions, `&&`, `||` and `!`.
    ///
    /// - Throws: ``TypedQueryError`` naming the first sub-expression that has no
    ///   counterpart (arithmetic, `??`, a String's `count`…) and how to rewrite it, or a key
    ///   path that `propertyKeys` does not list.
    public init<T: EntityObject>(_ predicate: Predicate<T>) throws(TypedQueryError) {
        self = try TypedPredicateTranslator.translate(predicate)
    }
}
