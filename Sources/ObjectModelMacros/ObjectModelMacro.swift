import Foundation
import EntityCodegen
import ManagedModel
import SwiftDiagnostics
import SwiftParser
import SwiftSyntaxBuilder
public import SwiftSyntax
public import SwiftSyntaxMacros

/// `@ObjectModel("Version")` on an enum: the model of the `@Entity` structs nested in it. It
/// checks what only the whole model shows (relationships to entities of the model, inverses
/// that name each other), then has the model builder validate the definition, and conforms
/// the enum to `CompiledModel` with the version's name, a source path and the
/// ``ModelDefinition`` that the XML of an equal model gives, so both hash alike.
public struct ObjectModelMacro: ExtensionMacro {
    /// The `CompiledModel` conformance with the model's definition, or nothing (and errors) for
    /// a model that is not valid.
    public static func expansion(of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
                                 providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
                                 in context: some MacroExpansionContext) throws -> [ExtensionDeclSyntax] {
        guard let namespace = declaration.as(EnumDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: ModelMacroMessage.error("@ObjectModel applies to an enum, the namespace of the model's @Entity structs")))
            return []
        }
        guard let argument = node.arguments?.as(LabeledExprListSyntax.self)?.first,
              let versionName = EntityProperty.stringLiteral(argument.expression), !versionName.isEmpty else {
            context.diagnose(Diagnostic(node: node, message: ModelMacroMessage.error("@ObjectModel needs the version's name as a string literal: @ObjectModel(\"Notebook\")")))
            return []
        }
        let structures = namespace.memberBlock.members.compactMap { $0.decl.as(StructDeclSyntax.self) }
            .filter { $0.attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "Entity" } }
        // Each entity's properties; those in error are diagnosed by @Entity, and left out here.
        let entities = structures.map { ($0, EntityProperty.properties(of: $0).properties) }
        var errors = checkRelationships(entities)
        for error in errors { context.diagnose(error) }

        let location = context.location(of: namespace, at: .afterLeadingTrivia, filePathMode: .fileID)
        let file = location.flatMap { EntityProperty.stringLiteral($0.file) } ?? namespace.name.text
        let sourcePath = "\(file):\(lineNumber(location))"
        let definition = ModelDefinition(entities: entities.map { structure, properties in
            definitionEntity(structure, properties, context: context)
        })
        if errors.isEmpty {
            // What else the model builder refuses (the same checks as for the XML).
            do {
                _ = try ObjectModel.build(definition, name: versionName, path: sourcePath, digest: .canonical)
            } catch let error as ModelError {
                errors.append(Diagnostic(node: namespace.name, message: ModelMacroMessage.error("\(error.element): \(error.reason)")))
                context.diagnose(errors[0])
            } catch {
                errors.append(Diagnostic(node: namespace.name, message: ModelMacroMessage.error("the model is invalid: \(error)")))
                context.diagnose(errors[0])
            }
        }
        guard errors.isEmpty else { return [] }
        let access = accessKeyword(of: namespace.modifiers)
        let source = """
            extension \(type.trimmedDescription): CompiledModel {
                /// The version's name.
                \(access) static let versionName = \(SwiftStringLiteral.make(versionName))
                /// Where the model is declared (`Module/File.swift:line`), named in errors.
                \(access) static let sourcePath = \(SwiftStringLiteral.make(sourcePath))
                /// The version's entities, attributes and relationships, as the XML of an equal model states them.
                \(access) static let definition = \(ModelDefinitionGenerator.literal(definition, indent: 4))
            }
            """
        return [try ExtensionDeclSyntax("\(raw: source)")]
    }

    /// Diagnoses relationships whose destination is no entity of the model and inverses that
    /// do not name each other, naming both sides.
    static func checkRelationships(_ entities: [(StructDeclSyntax, [EntityProperty])]) -> [Diagnostic] {
        let byName = Dictionary(entities.map { ($0.0.name.text, $0.1) }, uniquingKeysWith: { first, _ in first })
        var errors: [Diagnostic] = []
        for (structure, properties) in entities {
            let entity = structure.name.text
            for property in properties {
                guard case .relationship(let destination, _, let inverse, let inverseNode, _) = property.kind else { continue }
                let side = "\(entity).\(property.name)"
                guard let destinationProperties = byName[destination] else {
                    errors.append(Diagnostic(node: property.declaration, message: ModelMacroMessage.error(
                        "\(side) is a relationship to \(destination), which is not an @Entity struct of this @ObjectModel enum")))
                    continue
                }
                guard let inverse else { continue }
                let node = inverseNode ?? Syntax(property.declaration)
                guard let back = destinationProperties.first(where: { $0.name == inverse }) else {
                    errors.append(Diagnostic(node: node, message: ModelMacroMessage.error(
                        "\(side) names inverse \(destination).\(inverse), but \(destination) has no relationship '\(inverse)'")))
                    continue
                }
                guard case .relationship(let backDestination, _, let backInverse, _, _) = back.kind else {
                    errors.append(Diagnostic(node: node, message: ModelMacroMessage.error(
                        "\(side) names inverse \(destination).\(inverse), but \(destination).\(inverse) is an attribute, not a relationship")))
                    continue
                }
                guard backDestination == entity else {
                    errors.append(Diagnostic(node: node, message: ModelMacroMessage.error(
                        "\(side) names inverse \(destination).\(inverse), but \(destination).\(inverse) is a relationship to \(backDestination), not to \(entity)")))
                    continue
                }
                guard backInverse == property.name else {
                    let names = backInverse.map { "names inverse \(entity).\($0)" } ?? "names no inverse"
                    let fix = backInverse == nil ? "; add @Relationship(inverse: \"\(property.name)\") to it" : "; make the two name each other"
                    errors.append(Diagnostic(node: node, message: ModelMacroMessage.error(
                        "\(side) names inverse \(destination).\(inverse), but \(destination).\(inverse) \(names)\(fix)")))
                    continue
                }
            }
        }
        return errors
    }

    /// The entity's definition as the XML of an equal model states it (the element attributes
    /// the model builder reads), with each element's line in the Swift source and the doc
    /// comment of the declaration as its `description`.
    static func definitionEntity(_ structure: StructDeclSyntax, _ properties: [EntityProperty],
                                 context: some MacroExpansionContext) -> ModelDefinition.Entity {
        let entity = structure.name.text
        var attributes: [ModelDefinition.Element] = []
        var relationships: [ModelDefinition.Element] = []
        for property in properties {
            let line = lineNumber(context.location(of: property.declaration, at: .afterLeadingTrivia, filePathMode: .fileID))
            let userInfo = description(property.declaration).map { [EntityCodeGenerator.descriptionUserInfoKey: $0] } ?? [:]
            switch property.kind {
            case .attribute(let type, let isOptional, let defaultValue):
                var xml = ["name": property.name, "attributeType": type.rawValue]
                if isOptional { xml["optional"] = "YES" }
                if let defaultValue { xml["defaultValueString"] = defaultValue }
                attributes.append(ModelDefinition.Element(attributes: xml, line: line, userInfo: userInfo))
            case .relationship(let destination, let cardinality, let inverse, _, let deleteRule):
                var xml = ["name": property.name, "destinationEntity": destination, "deletionRule": deleteRule.rawValue, "optional": "YES"]
                switch cardinality {
                case .toOne: xml["maxCount"] = "1"
                case .orderedToMany: xml["toMany"] = "YES"; xml["ordered"] = "YES"
                case .unorderedToMany: xml["toMany"] = "YES"
                }
                if let inverse {
                    xml["inverseName"] = inverse
                    xml["inverseEntity"] = destination
                }
                relationships.append(ModelDefinition.Element(attributes: xml, line: line, userInfo: userInfo))
            }
        }
        let line = lineNumber(context.location(of: structure, at: .afterLeadingTrivia, filePathMode: .fileID))
        let userInfo = description(structure).map { [EntityCodeGenerator.descriptionUserInfoKey: $0] } ?? [:]
        return ModelDefinition.Entity(element: ModelDefinition.Element(attributes: ["name": entity], line: line, userInfo: userInfo),
                                      attributes: attributes, relationships: relationships)
    }

    /// The line number of `location`, 0 when the expansion context does not tell.
    static func lineNumber(_ location: AbstractSourceLocation?) -> Int {
        location?.line.as(IntegerLiteralExprSyntax.self).flatMap { Int($0.literal.text) } ?? 0
    }

    /// The text of the `///` doc comment before `node`, if it has one.
    static func description(_ node: some SyntaxProtocol) -> String? {
        let lines = node.leadingTrivia.compactMap { piece -> String? in
            guard case .docLineComment(let text) = piece else { return nil }
            return String(text.dropFirst(3)).trimmingCharacters(in: .whitespaces)
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }
}

/// Swift string literals written by the macros.
enum SwiftStringLiteral {
    /// `text` as a string literal.
    static func make(_ text: String) -> String {
        StringLiteralExprSyntax(content: text).description
    }
}
