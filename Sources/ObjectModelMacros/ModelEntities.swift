import EntityCodegen
import ManagedModel
import SwiftDiagnostics
import SwiftSyntax

/// One `@Entity` struct of an `@ObjectModel` enum, as read: its declaration and the properties
/// it declares (inherited ones it declares again included).
struct ModelEntity {
    let declaration: EntityDeclaration
    let properties: [EntityProperty]
}

/// The `@Entity` structs of one `@ObjectModel` enum, with what only the whole model shows:
/// parents, inherited properties, the properties relationships and fetch indexes name, and
/// each property's element as the XML writes it.
struct ModelEntities {
    /// The entities, in declaration order.
    let entities: [ModelEntity]
    /// The entities by struct name (the first of a name).
    let byType: [String: ModelEntity]

    init(_ entities: [ModelEntity]) {
        self.entities = entities
        byType = Dictionary(entities.map { ($0.declaration.typeName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The structs of `entity`'s ancestors, nearest first; stops at a parent that is no
    /// entity of the model or that would close a cycle.
    func ancestors(of entity: ModelEntity) -> [ModelEntity] {
        var chain: [ModelEntity] = []
        var seen: Set<String> = [entity.declaration.typeName]
        var next = entity.declaration.parent
        while let name = next, let parent = byType[name], seen.insert(name).inserted {
            chain.append(parent)
            next = parent.declaration.parent
        }
        return chain
    }

    /// The properties `entity` inherits, as its ancestors declare them (the root's first).
    func inheritedProperties(of entity: ModelEntity) -> [EntityProperty] {
        ancestors(of: entity).reversed().flatMap { ownProperties(of: $0) }
    }

    /// The properties `entity` adds to what it inherits: those it declares, less those it
    /// declares again.
    func ownProperties(of entity: ModelEntity) -> [EntityProperty] {
        let inherited = Set(ancestors(of: entity).flatMap { $0.properties.map(\.name) })
        return entity.properties.filter { !inherited.contains($0.name) }
    }

    /// Every property of `entity`: inherited, then its own.
    func allProperties(of entity: ModelEntity) -> [EntityProperty] {
        inheritedProperties(of: entity) + ownProperties(of: entity)
    }

    /// Whether the entity of struct `type` is `other`'s or one of its descendants'.
    func isKind(_ type: String, of other: String) -> Bool {
        guard let entity = byType[type] else { return false }
        return type == other || ancestors(of: entity).contains { $0.declaration.typeName == other }
    }

    /// The property's element as the XML of an equal model writes it: its XML attributes (model
    /// names throughout) and `userInfo` entries (the doc comment as `description`, the Swift name
    /// as `swiftName` where it differs from the model's).
    func element(_ property: EntityProperty) -> (attributes: [String: String], userInfo: [String: String]) {
        var xml = ["name": property.key]
        var userInfo: [String: String]
        switch property.kind {
        case .attribute(let type, let isOptional, let options):
            xml["attributeType"] = type.rawValue
            if isOptional { xml["optional"] = "YES" }
            if let value = options.defaultValue { xml["defaultValueString"] = value }
            if let value = options.minValue { xml[type == .date ? "minDateTimeInterval" : "minValueString"] = value }
            if let value = options.maxValue { xml[type == .date ? "maxDateTimeInterval" : "maxValueString"] = value }
            if options.transient { xml["transient"] = "YES" }
            if options.indexed { xml["indexed"] = "YES" }
            userInfo = options.userInfo
        case .relationship(let destination, let cardinality, let inverse, _, let deleteRule, let options):
            let destinationEntity = byType[destination]
            xml["destinationEntity"] = destinationEntity?.declaration.modelName ?? destination
            xml["deletionRule"] = deleteRule.rawValue
            xml["optional"] = "YES"
            switch cardinality {
            case .toOne: xml["maxCount"] = "1"
            case .orderedToMany: xml["toMany"] = "YES"; xml["ordered"] = "YES"
            case .unorderedToMany: xml["toMany"] = "YES"
            }
            if cardinality != .toOne {
                if let count = options.minCount { xml["minCount"] = String(count) }
                if let count = options.maxCount { xml["maxCount"] = String(count) }
            }
            if let inverse, let destinationEntity {
                xml["inverseName"] = allProperties(of: destinationEntity).first { $0.name == inverse }?.key ?? inverse
                xml["inverseEntity"] = destinationEntity.declaration.modelName
            }
            if options.transient { xml["transient"] = "YES" }
            userInfo = options.userInfo
        }
        if let text = ObjectModelMacro.description(property.declaration) { userInfo[EntityCodeGenerator.descriptionUserInfoKey] = text }
        if property.key != property.name { userInfo[EntityCodeGenerator.swiftNameUserInfoKey] = property.name }
        return (xml, userInfo)
    }

    /// Diagnoses what only the whole model shows, naming both sides: parents that are no
    /// entity of the model or form a cycle, inherited properties declared again differently,
    /// relationships to no entity of the model, inverses that do not name each other, and
    /// fetch indexes naming no property.
    func check() -> [Diagnostic] {
        var errors: [Diagnostic] = []
        func error(_ node: some SyntaxProtocol, _ message: String) {
            errors.append(Diagnostic(node: Syntax(node), message: ModelMacroMessage.error(message)))
        }
        for entity in entities {
            let declaration = entity.declaration
            let name = declaration.typeName
            if let parent = declaration.parent, let node = declaration.parentNode {
                if byType[parent] == nil {
                    error(node, "the parent of \(name), \(parent), is not an @Entity struct of this @ObjectModel enum")
                } else if ancestors(of: entity).contains(where: { $0.declaration.parent == name }) || parent == name {
                    error(node, "the parents of \(name) form a cycle through \(parent); an entity cannot descend from itself")
                }
            }
            // Inherited properties declared again: exactly as the ancestor declares them.
            let inherited = inheritedProperties(of: entity)
            for property in entity.properties {
                guard let original = inherited.first(where: { $0.name == property.name }) else { continue }
                var mine = element(property), theirs = element(original)
                mine.userInfo[EntityCodeGenerator.descriptionUserInfoKey] = nil
                theirs.userInfo[EntityCodeGenerator.descriptionUserInfoKey] = nil
                if mine.attributes != theirs.attributes || mine.userInfo != theirs.userInfo || !sameShape(property, original) {
                    let owner = ancestors(of: entity).first { $0.properties.contains { $0.name == property.name } }?.declaration.typeName ?? "its parent"
                    error(property.declaration, "\(name).\(property.name) is inherited from \(owner) and declared differently here; declare it exactly as \(owner) does (type and options), or remove it")
                }
            }
            errors += checkRelationships(of: entity)
            let names = Set(allProperties(of: entity).map(\.name))
            for index in declaration.fetchIndexes {
                for element in index.elements where !names.contains(element.property) {
                    error(element.node, "fetch index \"\(index.name)\" of \(name) names '\(element.property)', which is no stored property of \(name)")
                }
            }
        }
        return errors
    }

    /// Whether two declarations of a property have the same Swift shape (the same type, so the
    /// same accessors).
    private func sameShape(_ one: EntityProperty, _ other: EntityProperty) -> Bool {
        one.declaration.bindings.first?.typeAnnotation?.type.trimmedDescription
            == other.declaration.bindings.first?.typeAnnotation?.type.trimmedDescription
    }

    /// Diagnoses `entity`'s relationships whose destination is no entity of the model and
    /// inverses that do not name each other, naming both sides.
    private func checkRelationships(of entity: ModelEntity) -> [Diagnostic] {
        var errors: [Diagnostic] = []
        func error(_ node: some SyntaxProtocol, _ message: String) {
            errors.append(Diagnostic(node: Syntax(node), message: ModelMacroMessage.error(message)))
        }
        let name = entity.declaration.typeName
        for property in ownProperties(of: entity) {
            guard case .relationship(let destination, _, let inverse, let inverseNode, _, _) = property.kind else { continue }
            let side = "\(name).\(property.name)"
            guard let destinationEntity = byType[destination] else {
                error(property.declaration, "\(side) is a relationship to \(destination), which is not an @Entity struct of this @ObjectModel enum")
                continue
            }
            guard let inverse else { continue }
            let node = inverseNode ?? Syntax(property.declaration)
            guard let back = allProperties(of: destinationEntity).first(where: { $0.name == inverse }) else {
                error(node, "\(side) names inverse \(destination).\(inverse), but \(destination) has no relationship '\(inverse)'")
                continue
            }
            guard case .relationship(let backDestination, _, let backInverse, _, _, _) = back.kind else {
                error(node, "\(side) names inverse \(destination).\(inverse), but \(destination).\(inverse) is an attribute, not a relationship")
                continue
            }
            guard isKind(name, of: backDestination) || isKind(backDestination, of: name) else {
                error(node, "\(side) names inverse \(destination).\(inverse), but \(destination).\(inverse) is a relationship to \(backDestination), not to \(name)")
                continue
            }
            guard backInverse == property.name else {
                let names = backInverse.map { "names inverse \(name).\($0)" } ?? "names no inverse"
                let fix = backInverse == nil ? "; add @Relationship(inverse: \"\(property.name)\") to it" : "; make the two name each other"
                error(node, "\(side) names inverse \(destination).\(inverse), but \(destination).\(inverse) \(names)\(fix)")
                continue
            }
        }
        return errors
    }
}
