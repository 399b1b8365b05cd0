/// Why a typed query (a Foundation `Predicate` or `SortDescriptor` over an ``EntityObject``
/// type) could not become the store's string-keyed query.
///
/// Typed predicates and sorts are translated into ``ObjectPredicate`` and
/// ``FetchSortDescriptor`` so that the store runs them (and its indexes serve them) as it
/// does string predicates. What has no counterpart there is refused with this error, which
/// names the part of the query at fault and how to rewrite it, rather than being silently
/// evaluated some other way.
public enum TypedQueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A sub-expression of the predicate has no store counterpart: `expression` is its
    /// Foundation type (`Arithmetic`, `NilCoalesce`…), `detail` its description, `fix` how
    /// to rewrite the predicate.
    case unsupportedExpression(expression: String, detail: String, fix: String)
    /// A key path that the entity type's ``EntityObject/propertyKeys`` does not list, so it
    /// names no stored attribute or relationship.
    case unknownKeyPath(keyPath: String, entity: String)
    /// A sort descriptor that cannot be expressed as a ``FetchSortDescriptor``.
    case unsupportedSortDescriptor(sort: String, reason: String)

    /// A message naming the part of the query at fault and the fix.
    public var description: String {
        switch self {
        case .unsupportedExpression(let expression, let detail, let fix):
            return "the predicate's \(expression) expression (\(detail)) has no counterpart in the store's predicates; \(fix)"
        case .unknownKeyPath(let keyPath, let entity):
            return "key path \(keyPath) is not a stored property of \(entity): only attributes and relationships listed in \(entity).propertyKeys can be queried; use one of them (a computed property cannot be read by the store)"
        case .unsupportedSortDescriptor(let sort, let reason):
            return "sort descriptor \(sort) cannot be run by the store: \(reason)"
        }
    }
}
