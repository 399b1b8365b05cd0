/// The access level of a generated entity type and its members, chosen per entity with the
/// userInfo entry ``EntityCodeGenerator/swiftAccessUserInfoKey`` (`swiftAccess`): `public` (the
/// default), `package` or `internal`. An app keeps its entity types to itself with `internal`;
/// a library exports the ones its API needs.
enum SwiftAccess: String, Comparable, CaseIterable {
    case `internal`
    case package
    case `public`

    static func < (lhs: SwiftAccess, rhs: SwiftAccess) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The keyword written before a declaration.
    var keyword: String { rawValue }
}
