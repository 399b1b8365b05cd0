import EntityCodegen
import SwiftDiagnostics
import SwiftParser
import SwiftSyntaxBuilder
import SwiftParser
public import SwiftSyntax
public import SwiftSyntaxMacros

/// `@Entity`: makes a struct nested in an `@ObjectModel` enum the view type of an entity, as
/// `entity-codegen` generates one from a model's XML. It marks each stored property
/// `@_EntityProperty` (so it reads and writes the managed object), adds the members every view
/// has (``EntityMembers/commonMembers()``) and the `addTo…`/`removeFrom…` methods of to-many
/// relationships, and the `EntityObject` conformance.
public struct EntityMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
    /// The members every entity view has, and `addTo…`/`removeFrom…` per to-many relationship;
    /// diagnoses the properties the model cannot hold and an `@Entity` outside an `@ObjectModel` enum.
    public static func expansion(of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
                                 conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext) throws -> [DeclSyntax] {
        guard let structure = declaration.as(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: ModelMacroMessage.error("@Entity applies to a struct (the entity's view type), nested in an @ObjectModel enum")))
            return []
        }
        let entity = structure.name.text
        if !isInObjectModel(context.lexicalContext) {
            context.diagnose(Diagnostic(node: node, message: ModelMacroMessage.error(
                "@Entity struct \(entity) must be declared inside an enum marked @ObjectModel, which makes the model of its entities")))
        }
        let (declaration, declarationErrors) = EntityDeclaration.read(structure)
        let (properties, propertyErrors) = EntityProperty.properties(of: structure)
        let errors = declarationErrors + propertyErrors
        for error in errors { context.diagnose(error) }
        // A struct with a property in error stays as written: the error is all its author sees.
        guard errors.isEmpty else { return [] }
        let access = accessKeyword(of: structure.modifiers)
        let members = EntityMembers(
            entityName: declaration.modelName, typeName: entity, access: access,
            attributes: properties.compactMap(\.attributeMember),
            relationships: properties.compactMap { $0.relationshipMember(access: access) })
        var text = members.commonMembers()
        for relationship in members.relationships { text += EntityMembers.collectionMethods(of: relationship) }
        return declarations(in: text)
    }

    /// `@_EntityProperty` on each stored property, when the model can hold every one of them
    /// and the struct's `@Entity` and `@FetchIndex` arguments read (a struct in error stays as
    /// written, as the member expansion leaves it).
    public static func expansion(of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
                                 providingAttributesFor member: some DeclSyntaxProtocol,
                                 in context: some MacroExpansionContext) throws -> [AttributeSyntax] {
        guard let structure = declaration.as(StructDeclSyntax.self), EntityProperty.isStoredProperty(member),
              EntityDeclaration.read(structure).errors.isEmpty,
              EntityProperty.properties(of: structure).errors.isEmpty else { return [] }
        return ["@_EntityProperty"]
    }

    /// The `EntityObject` conformance.
    public static func expansion(of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
                                 providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
                                 in context: some MacroExpansionContext) throws -> [ExtensionDeclSyntax] {
        guard let structure = declaration.as(StructDeclSyntax.self), !protocols.isEmpty,
              EntityDeclaration.read(structure).errors.isEmpty,
              EntityProperty.properties(of: structure).errors.isEmpty else { return [] }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): EntityObject {}")]
    }

    /// Whether the innermost enclosing declaration is an enum marked `@ObjectModel`.
    static func isInObjectModel(_ lexicalContext: [Syntax]) -> Bool {
        guard let enclosing = lexicalContext.first?.as(EnumDeclSyntax.self) else { return false }
        return enclosing.attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "ObjectModel" }
    }

    /// The declarations of `text`, a sequence of member declarations.
    static func declarations(in text: String) -> [DeclSyntax] {
        let file = Parser.parse(source: "struct _Members {\n\(text)}\n")
        guard let holder = file.statements.first?.item.as(StructDeclSyntax.self) else { return [] }
        return holder.memberBlock.members.map { $0.decl.trimmed }
    }
}

/// `@_EntityProperty`, which `@Entity` puts on each stored property: the property's `get` and
/// `nonmutating set` through the view's managed object (``EntityMembers/accessors(of:)``).
public struct EntityPropertyMacro: AccessorMacro {
    /// The property's `get` and `nonmutating set` through the managed object.
    public static func expansion(of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
                                 in context: some MacroExpansionContext) throws -> [AccessorDeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self),
              let entity = context.lexicalContext.first?.as(StructDeclSyntax.self)?.name.text,
              case .success(let property) = EntityProperty.read(variable, entity: entity) else { return [] }
        let accessors = property.attributeMember.map(EntityMembers.accessors(of:))
            ?? property.relationshipMember(access: "internal").map(EntityMembers.accessors(of:)) ?? []
        return accessors.map { AccessorDeclSyntax(stringLiteral: $0) }
    }
}

/// `@Attribute(…)`, `@Relationship(…)` and `@FetchIndex(…)`: markers with arguments that
/// `@Entity` and `@ObjectModel` read; they add nothing themselves.
public struct PropertyMarkerMacro: PeerMacro {
    /// Nothing: the arguments are read by `@Entity` and `@ObjectModel`.
    public static func expansion(of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
                                 in context: some MacroExpansionContext) throws -> [DeclSyntax] {
        []
    }
}

/// The access keyword for generated members of a type with `modifiers`: `public` or `package`
/// when the type is, else `internal`.
func accessKeyword(of modifiers: DeclModifierListSyntax) -> String {
    for modifier in modifiers {
        switch modifier.name.tokenKind {
        case .keyword(.public), .keyword(.open): return "public"
        case .keyword(.package): return "package"
        default: continue
        }
    }
    return "internal"
}
