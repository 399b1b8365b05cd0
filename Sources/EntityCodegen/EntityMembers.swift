/// The members of one generated entity view type, as Swift source: what `entity-codegen`
/// writes into each struct it generates from a model, and what the `@Entity` macro
/// (ObjectModelMacros) adds to a struct declared in Swift. Both describe the entity with this
/// type and take its text, so a view type reads the same whichever way its model is declared.
public struct EntityMembers: Sendable {
    /// How a relationship's destinations are held.
    public enum Cardinality: Sendable, Equatable {
        /// At most one destination: a property of type `Destination?`.
        case toOne
        /// Destinations in order: a property of type `[Destination]`.
        case orderedToMany
        /// Destinations without order: a property of type `Set<Destination>`.
        case unorderedToMany
    }

    /// One attribute of the entity.
    public struct Attribute: Sendable {
        /// The attribute's name in the model.
        public var key: String
        /// The Swift property's name.
        public var name: String
        /// The Swift type of the property's value (`String`, `Int64`, `Date`, …), without `?`.
        public var swiftType: String
        /// Whether the property is optional (`nil` while unset).
        public var isOptional: Bool

        /// An attribute `key` read and written as the property `name` of type `swiftType`
        /// (`swiftType?` when `isOptional`).
        public init(key: String, name: String, swiftType: String, isOptional: Bool) {
            self.key = key
            self.name = name
            self.swiftType = swiftType
            self.isOptional = isOptional
        }
    }

    /// One relationship of the entity.
    public struct Relationship: Sendable {
        /// The relationship's name in the model.
        public var key: String
        /// The Swift property's name.
        public var name: String
        /// The Swift type of the destination entity's view.
        public var destinationType: String
        /// How the destinations are held.
        public var cardinality: Cardinality
        /// The inverse relationship's name, if any.
        public var inverseName: String?
        /// The access level keyword of the property and its methods (`public`, `package`,
        /// `internal`).
        public var access: String

        /// A relationship `key` to `destinationType`, as the property `name`.
        public init(key: String, name: String, destinationType: String, cardinality: Cardinality, inverseName: String?, access: String) {
            self.key = key
            self.name = name
            self.destinationType = destinationType
            self.cardinality = cardinality
            self.inverseName = inverseName
            self.access = access
        }
    }

    /// The entity's name in the model.
    public var entityName: String
    /// The view type's name.
    public var typeName: String
    /// The access level keyword of the type and its members (`public`, `package`, `internal`).
    public var access: String
    /// The attributes, in model order.
    public var attributes: [Attribute]
    /// The relationships, in model order.
    public var relationships: [Relationship]

    /// The members of the view `typeName` of entity `entityName`.
    public init(entityName: String, typeName: String, access: String, attributes: [Attribute], relationships: [Relationship]) {
        self.entityName = entityName
        self.typeName = typeName
        self.access = access
        self.attributes = attributes
        self.relationships = relationships
    }

    /// The members every view has, indented for a type's body: `entityName`, `object`,
    /// `init(unchecked:)`, `propertyKeys`, the nested `Snapshot` and `snapshot`.
    public func commonMembers() -> String {
        var out = SourceText()
        out.line("    /// The entity's name in the model.")
        out.line("    \(access) static let entityName = \(SwiftLiteral.string(entityName))")
        out.line()
        out.line("    /// The managed object behind the view.")
        out.line("    \(access) let object: ManagedObject")
        out.line()
        out.line("    /// Views `object` as ``\(typeName)`` without checking its entity.")
        out.line("    \(access) init(unchecked object: ManagedObject) {")
        out.line("        self.object = object")
        out.line("    }")
        let keyed = attributes.map { ($0.name, $0.key) } + relationships.map { ($0.name, $0.key) }
        out.line()
        out.line("    /// The model name behind each property's key path, for typed predicates and sorts.")
        out.line("    \(access) static var propertyKeys: [PartialKeyPath<\(typeName)>: String] {")
        if keyed.isEmpty {
            out.line("        [:]")
        } else {
            out.line("        [")
            for (name, key) in keyed { out.line("            \\.\(SwiftIdentifier.escaped(name)): \"\(key)\",") }
            out.line("        ]")
        }
        out.line("    }")
        writeSnapshot(to: &out)
        return out.text
    }

    /// The nested `Snapshot` type: the entity's stored values as a `Sendable` value, and the
    /// view's `snapshot` property that makes one.
    private func writeSnapshot(to out: inout SourceText) {
        let toOnes = relationships.filter { $0.cardinality == .toOne }
        out.line()
        out.line("    /// The stored values of a ``\(typeName)`` as a `Sendable` value, to hand across actors and")
        out.line("    /// tasks; to-one relationships as the destination's ID, to-many ones left out.")
        out.line("    \(access) struct Snapshot: EntitySnapshot {")
        out.line("        /// The object the values are of.")
        out.line("        \(access) let objectID: ObjectID")
        for attribute in attributes {
            out.line("        /// The value of `\(attribute.name)`.")
            out.line("        \(access) let \(SwiftIdentifier.escaped(attribute.name)): \(attribute.swiftType)\(attribute.isOptional ? "?" : "")")
        }
        for relationship in toOnes {
            out.line("        /// The ID of the destination of `\(relationship.name)`.")
            out.line("        \(access) let \(SwiftIdentifier.escaped(relationship.name)): ObjectID?")
        }
        out.line()
        out.line("        /// The values of a stored row.")
        out.line("        \(access) init(row: RowSnapshot) {")
        out.line("            objectID = row.objectID")
        for attribute in attributes {
            let type = attribute.swiftType
            let read = "row.value(\"\(attribute.key)\", as: \(type).self)"
            out.line("            \(SwiftIdentifier.escaped(attribute.name)) = \(read)\(attribute.isOptional ? "" : " ?? \(type).unsetValue")")
        }
        for relationship in toOnes {
            out.line("            \(SwiftIdentifier.escaped(relationship.name)) = row.toOne[\"\(relationship.key)\"]")
        }
        out.line("        }")
        out.line()
        out.line("        /// The current values of `object`.")
        out.line("        init(_ object: \(typeName)) {")
        out.line("            objectID = object.objectID")
        for attribute in attributes {
            let name = SwiftIdentifier.escaped(attribute.name)
            out.line("            \(name) = object.\(name)")
        }
        for relationship in toOnes {
            let name = SwiftIdentifier.escaped(relationship.name)
            out.line("            \(name) = object.\(name)?.objectID")
        }
        out.line("        }")
        out.line("    }")
        out.line()
        out.line("    /// The object's current values (unsaved changes included) as a `Sendable` value.")
        out.line("    \(access) var snapshot: Snapshot { Snapshot(self) }")
    }

    /// The property type a view declares for `attribute` (`String`, `Date?`).
    public static func propertyType(of attribute: Attribute) -> String {
        attribute.swiftType + (attribute.isOptional ? "?" : "")
    }

    /// The property type a view declares for `relationship` (`Folder?`, `[Note]`, `Set<Tag>`).
    public static func propertyType(of relationship: Relationship) -> String {
        switch relationship.cardinality {
        case .toOne: return "\(relationship.destinationType)?"
        case .orderedToMany: return "[\(relationship.destinationType)]"
        case .unorderedToMany: return "Set<\(relationship.destinationType)>"
        }
    }

    /// The accessors of `attribute`'s property, one per element, unindented: a `get` through
    /// the managed object and a `nonmutating set`.
    public static func accessors(of attribute: Attribute) -> [String] {
        let key = attribute.key
        let type = attribute.swiftType
        let get = attribute.isOptional
            ? "get { object.attributeValue(\"\(key)\", as: \(type).self) }"
            : "get { object.requiredAttributeValue(\"\(key)\", as: \(type).self) }"
        return [get, "nonmutating set { object.setAttributeValue(newValue, \"\(key)\") }"]
    }

    /// The accessors of `relationship`'s property, one per element, unindented: a `get`
    /// through the managed object and a `nonmutating set`.
    public static func accessors(of relationship: Relationship) -> [String] {
        let key = relationship.key
        let destination = relationship.destinationType
        switch relationship.cardinality {
        case .toOne:
            return ["get { object.destination(\"\(key)\").map(\(destination).init(unchecked:)) }",
                    "nonmutating set { object.setDestination(newValue?.object, \"\(key)\") }"]
        case .orderedToMany:
            return ["get { object.destinations(\"\(key)\").map(\(destination).init(unchecked:)) }",
                    "nonmutating set { object.setDestinations(newValue.map(\\.object), \"\(key)\") }"]
        case .unorderedToMany:
            return ["get { Set(object.destinations(\"\(key)\").map(\(destination).init(unchecked:))) }",
                    "nonmutating set { object.setDestinations(newValue.map(\\.object), \"\(key)\") }"]
        }
    }

    /// The `addTo…` and `removeFrom…` methods of a to-many `relationship`, indented for a
    /// type's body and each preceded by an empty line (nothing for a to-one relationship).
    public static func collectionMethods(of relationship: Relationship) -> String {
        guard relationship.cardinality != .toOne else { return "" }
        let name = relationship.name
        let key = relationship.key
        let access = relationship.access
        let destination = relationship.destinationType
        let follows = relationship.inverseName.map { "; the inverse `\($0)` follows" } ?? ""
        let atEnd = relationship.cardinality == .orderedToMany ? " at the end" : ""
        var out = SourceText()
        out.line()
        out.line("    /// Adds `value` to ``\(name)``\(atEnd)\(follows).")
        out.line("    \(access) func \(SwiftIdentifier.prefixed("addTo", name))(_ value: \(destination)) {")
        out.line("        object.addDestination(value.object, \"\(key)\")")
        out.line("    }")
        out.line()
        out.line("    /// Removes `value` from ``\(name)``\(follows).")
        out.line("    \(access) func \(SwiftIdentifier.prefixed("removeFrom", name))(_ value: \(destination)) {")
        out.line("        object.removeDestination(value.object, \"\(key)\")")
        out.line("    }")
        return out.text
    }
}
