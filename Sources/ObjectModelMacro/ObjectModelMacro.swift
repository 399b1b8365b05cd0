// A model declared in Swift: `@ObjectModel` on an enum, `@Entity` on the structs nested in it.
// The macros (the ObjectModelMacros compiler plug-in, on swift-syntax) write the same view
// types and the same model definition that `EntityCodegenPlugin` generates from an
// .xcdatamodeld, so the two ways give equal models with equal version hashes. ObjectGraph
// does not depend on this module: only a program that imports it builds swift-syntax.
@_exported public import ObjectGraph

/// Makes the enum it marks the model of the `@Entity` structs nested in it: a ``CompiledModel``
/// with the version's name `versionName`, a source path naming the declaration
/// (`Module/File.swift:line`) and the ``ModelDefinition`` the XML of an equal model gives, so
/// a store written with either hashes alike.
///
/// ```swift
/// @ObjectModel("Notebook")
/// enum NotebookSchema {
///     @Entity struct Folder {
///         var name: String
///         var created: Date?
///         @Relationship(inverse: "folder", deleteRule: .cascade) var notes: [Note]
///     }
///     @Entity struct Note {
///         var text: String
///         @Attribute(default: false) var pinned: Bool
///         @Relationship(inverse: "notes") var folder: Folder?
///     }
/// }
/// let container = PersistentStoreCoordinator(model: try NotebookSchema.model(), store: InMemoryStore())
/// ```
///
/// At compile time it reports a relationship to a struct that is no entity of the model, an
/// inverse naming a missing property, and inverses that do not name each other (naming both
/// sides), then whatever else the model builder refuses.
@attached(extension, conformances: CompiledModel, names: named(versionName), named(sourcePath), named(definition))
public macro ObjectModel(_ versionName: String) = #externalMacro(module: "ObjectModelMacros", type: "ObjectModelMacro")

/// Makes the struct it marks, nested in an `@ObjectModel` enum, the typed view of the entity of
/// the same name, as `EntityCodegenPlugin` generates one: each stored `var` becomes an attribute
/// or relationship read and written through the managed object (non-throwing `get`,
/// `nonmutating set`), and the struct gets `entityName`, `object`, `init(unchecked:)`,
/// `propertyKeys`, a `Snapshot` and `snapshot`, `addTo…`/`removeFrom…` for each to-many
/// relationship, and the ``EntityObject`` conformance.
///
/// A property's type says what it is: `String`, `Int16`, `Int32`, `Int64`, `Double`, `Float`,
/// `Decimal`, `Bool`, `Date`, `Data`, `UUID` or `URL` is an attribute (optional with `?`);
/// another entity's struct `T?` is a to-one relationship, `[T]` an ordered to-many one and
/// `Set<T>` an unordered one. A `///` doc comment becomes the element's `description`.
///
/// - Parameters:
///   - modelName: the entity's name in the model when it is not the struct's (the XML's
///     `userInfo` `swiftName` of the entity is then the struct's name).
///   - parent: the struct of the entity this one is a sub-entity of (`parent: Item.self`, the
///     XML's `parentEntity`): it inherits the parent's properties, and a fetch of the parent
///     includes its objects. The struct may declare inherited properties again, exactly as the
///     parent does, to read them through its own view; they stay the parent's in the model.
///   - isAbstract: whether the entity has no objects of its own, only of its sub-entities
///     (the XML's `isAbstract`).
@attached(member, names: named(entityName), named(object), named(init), named(propertyKeys), named(Snapshot), named(snapshot), arbitrary)
@attached(memberAttribute)
@attached(extension, conformances: EntityObject)
public macro Entity(modelName: String? = nil, parent: Any.Type? = nil, isAbstract: Bool = false) = #externalMacro(module: "ObjectModelMacros", type: "EntityMacro")

/// Options of an attribute of an `@Entity` struct. `default`, a literal, is the value a new
/// object starts with (the model's `defaultValueString`).
///
/// - Parameters:
///   - default: the value a new object starts with (the XML's `defaultValueString`).
///   - modelName: the attribute's name in the model when it is not the property's (the XML's
///     `userInfo` `swiftName` is then the property's name).
///   - minValue: the smallest value of a number, the shortest length of a string or data, or
///     the earliest date in seconds since 2001-01-01 (the XML's `minValueString`, or
///     `minDateTimeInterval` for a date); a save of an object below it fails.
///   - maxValue: the largest value, longest length or latest date, as `minValue`.
///   - transient: whether the value lives only in memory and is never stored (the XML's
///     `transient`).
///   - indexed: whether the store indexes the attribute for fetches (the XML's `indexed`).
///   - userInfo: further `userInfo` entries of the element, as the XML's (`encrypted`,
///     `textIndexed`, …); `description` comes from the doc comment and `swiftName` from
///     `modelName`.
@attached(peer)
public macro Attribute<Value>(default: Value, modelName: String? = nil, minValue: Double? = nil, maxValue: Double? = nil,
                              transient: Bool = false, indexed: Bool = false, userInfo: [String: String] = [:]) = #externalMacro(module: "ObjectModelMacros", type: "PropertyMarkerMacro")

/// Options of an attribute of an `@Entity` struct without a default value: the same options as
/// `@Attribute(default:…)` otherwise.
@attached(peer)
public macro Attribute(modelName: String? = nil, minValue: Double? = nil, maxValue: Double? = nil,
                       transient: Bool = false, indexed: Bool = false, userInfo: [String: String] = [:]) = #externalMacro(module: "ObjectModelMacros", type: "PropertyMarkerMacro")

/// Options of a relationship of an `@Entity` struct: `inverse`, the name of the destination's
/// relationship back (kept up to date by the object graph), and the `deleteRule` applied to
/// the destinations when an object is deleted (``DeleteRule/nullify`` unless given).
///
/// - Parameters:
///   - inverse: the destination struct's property that points back (the XML's `inverseName`).
///   - deleteRule: what deleting an object does to its destinations (the XML's `deletionRule`).
///   - modelName: the relationship's name in the model when it is not the property's.
///   - minCount: the fewest destinations of a to-many relationship a save accepts.
///   - maxCount: the most destinations of a to-many relationship a save accepts.
///   - transient: whether the relationship lives only in memory and is never stored.
///   - userInfo: further `userInfo` entries of the element, as the XML's.
@attached(peer)
public macro Relationship(inverse: String? = nil, deleteRule: DeleteRule = .nullify, modelName: String? = nil,
                          minCount: Int? = nil, maxCount: Int? = nil, transient: Bool = false,
                          userInfo: [String: String] = [:]) = #externalMacro(module: "ObjectModelMacros", type: "PropertyMarkerMacro")

/// A compound fetch index of an `@Entity` struct's entity (the XML's `<fetchIndex>`), which
/// stores may build for fetches that filter or sort by its properties in its order:
/// `@FetchIndex("byRankTitle", .descending("rank"), "title")`. Each element names a stored
/// property of the struct (or one it inherits) by its Swift name; a plain string is ascending.
@attached(peer)
public macro FetchIndex(_ name: String, _ elements: FetchIndexElement...) = #externalMacro(module: "ObjectModelMacros", type: "PropertyMarkerMacro")

/// One element of a `@FetchIndex`: a property of the entity and the order the index keeps
/// it in. A string literal is the property in ascending order.
public struct FetchIndexElement: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The property's Swift name.
    public let property: String
    /// Whether the index keeps it in ascending order.
    public let ascending: Bool

    /// `property` in ascending order.
    public static func ascending(_ property: String) -> FetchIndexElement {
        FetchIndexElement(property: property, ascending: true)
    }

    /// `property` in descending order.
    public static func descending(_ property: String) -> FetchIndexElement {
        FetchIndexElement(property: property, ascending: false)
    }

    /// `value` in ascending order.
    public init(stringLiteral value: String) {
        self.init(property: value, ascending: true)
    }

    private init(property: String, ascending: Bool) {
        self.property = property
        self.ascending = ascending
    }
}

/// The accessors of a stored property of an `@Entity` struct, which `@Entity` adds; not
/// written by hand.
@attached(accessor, names: named(get), named(set))
public macro _EntityProperty() = #externalMacro(module: "ObjectModelMacros", type: "EntityPropertyMacro")
