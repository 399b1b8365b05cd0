import DocumentFormat
/// One field of a declared query index: a dotted path, keyed either by its value or, when
/// `folded`, by its value with case and accents removed (`TextFolding`), so `$foldEq`
/// conditions and folded sorts are answered from the index.
public struct IndexField: Sendable, Hashable {
    /// Dotted path of the field.
    public var field: String
    /// Whether strings are keyed by their folded form.
    public var folded: Bool

    /// A field keyed by its value, or by its folded value when `folded`.
    public init(_ field: String, folded: Bool = false) {
        self.field = field
        self.folded = folded
    }

    /// The stored form: the path for a plain field, `{"field": path, "fold": true}` for a folded one.
    var json: JSONValue {
        folded ? ["field": .string(field), "fold": true] : .string(field)
    }

    /// Reads the stored form back.
    init?(json: JSONValue) {
        switch json {
        case .string(let path): self.init(path)
        case .object(let members):
            guard case .string(let path)? = members["field"] else { return nil }
            self.init(path, folded: members["fold"] == .bool(true))
        default: return nil
        }
    }
}
