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
        // Each entity's declaration and properties; those in error are diagnosed by @Entity,
        // and left out here.
        let model = ModelEntities(structures.map { ModelEntity(declaration: EntityDeclaration.read($0).declaration,
                                                               properties: EntityProperty.properties(of: $0).properties) })
        var errors = model.check()
        for error in errors { context.diagnose(error) }

        let location = context.location(of: namespace, at: .afterLeadingTrivia, filePathMode: .fileID)
        let file = location.flatMap { EntityProperty.stringLiteral($0.file) } ?? namespace.name.text
        let sourcePath = "\(file):\(lineNumber(location))"
        if !errors.isEmpty { return [] }
        let definition = ModelDefinition(entities: model.entities.map { definitionEntity($0, in: model, context: context) })
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

    /// The entity's definition as the XML of an equal model states it (the element attributes
    /// the model builder reads): its own properties (not those it inherits, even when its
    /// struct declares them again) and fetch indexes, with model names where they differ from
    /// the Swift names (which become `userInfo` `swiftName`), each element's line in the Swift
    /// source and the doc comment of the declaration as its `description`.
    static func definitionEntity(_ entity: ModelEntity, in model: ModelEntities,
                                 context: some MacroExpansionContext) -> ModelDefinition.Entity {
        var attributes: [ModelDefinition.Element] = []
        var relationships: [ModelDefinition.Element] = []
        func line(_ node: some SyntaxProtocol) -> Int {
            lineNumber(context.location(of: node, at: .afterLeadingTrivia, filePathMode: .fileID))
        }
        for property in model.ownProperties(of: entity) {
            let (xml, userInfo) = model.element(property)
            switch property.kind {
            case .attribute: attributes.append(ModelDefinition.Element(attributes: xml, line: line(property.declaration), userInfo: userInfo))
            case .relationship: relationships.append(ModelDefinition.Element(attributes: xml, line: line(property.declaration), userInfo: userInfo))
            }
        }
        let declaration = entity.declaration
        var xml = ["name": declaration.modelName]
        if let parent = declaration.parent.flatMap({ model.byType[$0] }) { xml["parentEntity"] = parent.declaration.modelName }
        if declaration.isAbstract { xml["isAbstract"] = "YES" }
        var userInfo = description(declaration.structure).map { [EntityCodeGenerator.descriptionUserInfoKey: $0] } ?? [:]
        if declaration.modelName != declaration.typeName { userInfo[EntityCodeGenerator.swiftNameUserInfoKey] = declaration.typeName }
        let all = model.allProperties(of: entity)
        let fetchIndexes = declaration.fetchIndexes.map { index in
            ModelDefinition.FetchIndex(
                element: ModelDefinition.Element(attributes: ["name": index.name], line: line(declaration.structure)),
                items: index.elements.map { element in
                    let key = all.first { $0.name == element.property }?.key ?? element.property
                    return ModelDefinition.Element(attributes: ["property": key, "type": "Binary", "order": element.ascending ? "ascending" : "descending"],
                                                   line: line(element.node))
                })
        }
        return ModelDefinition.Entity(element: ModelDefinition.Element(attributes: xml, line: line(declaration.structure), userInfo: userInfo),
                                      attributes: attributes, relationships: relationships, fetchIndexes: fetchIndexes)
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
