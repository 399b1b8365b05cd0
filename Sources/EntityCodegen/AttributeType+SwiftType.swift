public import ManagedModel

extension AttributeType {
    /// The attribute type whose generated properties have the Swift type `name` (`String`,
    /// `Int64`, `Date`, …; `Data` is ``AttributeType/binary``), or `nil` for a type no
    /// attribute has: how a model declared in Swift (`@Entity`) gets its attribute types.
    public init?(swiftTypeName name: String) {
        guard let type = Self.allCases.first(where: { $0 != .transformable && $0.swiftTypeName == name }) else { return nil }
        self = type
    }

    /// The Swift type names attributes can have, in the order of ``AttributeType/allCases``.
    public static var swiftTypeNames: [String] {
        allCases.filter { $0 != .transformable }.map(\.swiftTypeName)
    }

    /// The Swift type a generated property of this attribute type has (see
    /// `AttributeConvertible` in ObjectGraph for the conversions).
    public var swiftTypeName: String {
        switch self {
        case .string: return "String"
        case .integer16: return "Int16"
        case .integer32: return "Int32"
        case .integer64: return "Int64"
        case .double: return "Double"
        case .float: return "Float"
        case .decimal: return "Decimal"
        case .boolean: return "Bool"
        case .date: return "Date"
        case .binary, .transformable: return "Data"
        case .uuid: return "UUID"
        case .uri: return "URL"
        }
    }

    /// Whether the Swift type comes from Foundation (so the generated file imports it).
    var needsFoundation: Bool {
        switch self {
        case .string, .integer16, .integer32, .integer64, .double, .float, .boolean: return false
        case .decimal, .date, .binary, .transformable, .uuid, .uri: return true
        }
    }
}
