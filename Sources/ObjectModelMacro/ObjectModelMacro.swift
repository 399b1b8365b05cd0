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
@attached(member, names: named(entityName), named(object), named(init), named(propertyKeys), named(Snapshot), named(snapshot), arbitrary)
@attached(memberAttribute)
@attached(extension, conformances: EntityObject)
public macro Entity() = #externalMacro(module: "ObjectModelMacros", type: "EntityMacro")

/// Options of an attribute of an `@Entity` struct: `default`, a literal, is the value a new
/// object starts with (the model's `defaultValueString`).
@attached(peer)
public macro Attribute<Value>(default: Value) = #externalMacro(module: "ObjectModelMacros", type: "PropertyMarkerMacro")

/// Options of a relationship of an `@Entity` struct: `inverse`, the name of the destination's
/// relationship back (kept up to date by the object graph), and the `deleteRule` applied to
/// the destinations when an object is deleted (``DeleteRule/nullify`` unless given).
@attached(peer)
public macro Relationship(inverse: String? = nil, deleteRule: DeleteRule = .nullify) = #externalMacro(module: "ObjectModelMacros", type: "PropertyMarkerMacro")

/// The accessors of a stored property of an `@Entity` struct, which `@Entity` adds; not
/// written by hand.
@attached(accessor, names: named(get), named(set))
public macro _EntityProperty() = #externalMacro(module: "ObjectModelMacros", type: "EntityPropertyMacro")
