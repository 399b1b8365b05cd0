import ManagedModel

/// The Swift names chosen for one entity and its properties, checked against Swift's rules
/// and against each other before any code is written.
struct EntityPlan {
    /// The entity.
    let entity: EntityDescription
    /// The generated type's name.
    let typeName: String
    /// The generated type's access level (its members' too, but for relationships to a less
    /// visible type, which take that type's).
    let access: SwiftAccess
    /// Each attribute with its property name (model order, inherited first).
    let attributes: [(AttributeDescription, String)]
    /// Each relationship with its property name (model order, inherited first).
    let relationships: [(RelationshipDescription, String)]

    /// Plans every entity of `model`, in the model's order.
    /// - Throws: ``ModelError`` naming the first name that cannot be used.
    static func plans(for model: ObjectModel) throws(ModelError) -> [EntityPlan] {
        var typeOwners: [String: EntityDescription] = [:]
        var plans: [EntityPlan] = []
        for entity in model.entities {
            let plan = try plan(entity, in: model)
            if let other = typeOwners[plan.typeName] {
                throw ModelError(file: model.sourcePath, line: entity.line, element: "entity \"\(entity.name)\"",
                                 reason: "its Swift type name \"\(plan.typeName)\" is also the name of entity \"\(other.name)\" (line \(other.line)); change one userInfo \(EntityCodeGenerator.swiftNameUserInfoKey)")
            }
            typeOwners[plan.typeName] = entity
            plans.append(plan)
        }
        return plans
    }

    private static func plan(_ entity: EntityDescription, in model: ObjectModel) throws(ModelError) -> EntityPlan {
        let element = "entity \"\(entity.name)\""
        func fail(_ line: Int, _ element: String, _ reason: String) -> ModelError {
            ModelError(file: model.sourcePath, line: line, element: element, reason: reason)
        }
        let typeName = entity.userInfo[EntityCodeGenerator.swiftNameUserInfoKey] ?? entity.name
        let accessText = entity.userInfo[EntityCodeGenerator.swiftAccessUserInfoKey] ?? SwiftAccess.public.rawValue
        guard let access = SwiftAccess(rawValue: accessText) else {
            throw fail(entity.line, element, "its userInfo \(EntityCodeGenerator.swiftAccessUserInfoKey) is \"\(accessText)\"; use public, package or internal")
        }
        guard SwiftIdentifier.isIdentifier(typeName) else {
            throw fail(entity.line, element, "\"\(typeName)\" is not a Swift identifier, so it cannot name the generated type; rename the entity (letters, digits and _, not starting with a digit) or give it a userInfo \(EntityCodeGenerator.swiftNameUserInfoKey)")
        }
        guard !SwiftIdentifier.keywords.contains(typeName), !EntityCodeGenerator.reservedTypes.contains(typeName) else {
            throw fail(entity.line, element, "\"\(typeName)\" is a Swift keyword or a type the generated code uses, so it cannot name the generated type; rename the entity or give it a userInfo \(EntityCodeGenerator.swiftNameUserInfoKey)")
        }
        // Every member name the type will have, with the property that brings it.
        var members: [String: String] = [:]
        func claim(_ names: [String], for property: String, line: Int, element: String) throws(ModelError) {
            guard SwiftIdentifier.isIdentifier(property) else {
                throw fail(line, element, "\"\(property)\" is not a Swift identifier; rename it (letters, digits and _, not starting with a digit) or give it a userInfo \(EntityCodeGenerator.swiftNameUserInfoKey)")
            }
            guard !SwiftIdentifier.unusableMemberNames.contains(property) else {
                throw fail(line, element, "\"\(property)\" cannot name a Swift property, even in backticks; rename it or give it a userInfo \(EntityCodeGenerator.swiftNameUserInfoKey)")
            }
            for name in names {
                if EntityCodeGenerator.reservedMembers.contains(name) {
                    throw fail(line, element, "the generated member \"\(name)\" would clash with the member every entity type has; rename it or give it a userInfo \(EntityCodeGenerator.swiftNameUserInfoKey)")
                }
                if let other = members[name] {
                    throw fail(line, element, "the generated member \"\(name)\" would clash with the one generated for \"\(other)\" of entity \"\(entity.name)\"; rename one of them or give it a userInfo \(EntityCodeGenerator.swiftNameUserInfoKey)")
                }
                members[name] = property
            }
        }
        var attributes: [(AttributeDescription, String)] = []
        for attribute in entity.attributes {
            let name = attribute.userInfo[EntityCodeGenerator.swiftNameUserInfoKey] ?? attribute.name
            try claim([name], for: name, line: attribute.line,
                      element: "attribute \"\(attribute.name)\" of entity \"\(entity.name)\"")
            attributes.append((attribute, name))
        }
        var relationships: [(RelationshipDescription, String)] = []
        for relationship in entity.relationships {
            let name = relationship.userInfo[EntityCodeGenerator.swiftNameUserInfoKey] ?? relationship.name
            let accessors = relationship.isToMany
                ? [name, SwiftIdentifier.prefixed("addTo", name), SwiftIdentifier.prefixed("removeFrom", name)]
                : [name]
            try claim(accessors, for: name, line: relationship.line,
                      element: "relationship \"\(relationship.name)\" of entity \"\(entity.name)\"")
            relationships.append((relationship, name))
        }
        return EntityPlan(entity: entity, typeName: typeName, access: access, attributes: attributes, relationships: relationships)
    }
}
