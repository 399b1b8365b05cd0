import SwiftDiagnostics
import SwiftSyntax

/// What an `@Entity` struct's attributes say of its entity, besides its properties: the name
/// in the model, the parent entity, whether it is abstract, and its `@FetchIndex`es.
struct EntityDeclaration {
    /// One `@FetchIndex` of the struct.
    struct FetchIndex {
        /// One element: a property's Swift name and its order.
        struct Element {
            let property: String
            let ascending: Bool
            /// Where diagnostics about the element point.
            let node: Syntax
        }

        /// The index's name.
        let name: String
        /// Its elements, in order.
        let elements: [Element]
    }

    /// The struct.
    let structure: StructDeclSyntax
    /// The entity's name in the model (the struct's, unless `modelName:` gives another).
    let modelName: String
    /// The parent entity's struct, from `parent: Parent.self`.
    let parent: String?
    /// Where diagnostics about the parent point.
    let parentNode: Syntax?
    /// `isAbstract: true`.
    let isAbstract: Bool
    /// The `@FetchIndex`es, in order.
    let fetchIndexes: [FetchIndex]

    /// The struct's name.
    var typeName: String { structure.name.text }

    /// Reads the `@Entity` and `@FetchIndex` attributes of `structure`; an argument that is
    /// not written as a literal the macros can read is diagnosed and left out.
    static func read(_ structure: StructDeclSyntax) -> (declaration: EntityDeclaration, errors: [Diagnostic]) {
        let entity = structure.name.text
        var errors: [Diagnostic] = []
        func error(_ node: some SyntaxProtocol, _ message: String) {
            errors.append(Diagnostic(node: Syntax(node), message: ModelMacroMessage.error(message)))
        }
        var modelName = entity
        var parent: String?
        var parentNode: Syntax?
        var isAbstract = false
        var fetchIndexes: [FetchIndex] = []
        for element in structure.attributes {
            guard let attribute = element.as(AttributeSyntax.self) else { continue }
            let arguments = attribute.arguments?.as(LabeledExprListSyntax.self)
            switch attribute.attributeName.trimmedDescription {
            case "Entity":
                for argument in arguments ?? [] {
                    let expression = argument.expression
                    switch argument.label?.text {
                    case "modelName":
                        guard let text = EntityProperty.stringLiteral(expression), !text.isEmpty else {
                            error(expression, "the modelName of @Entity struct \(entity) must be a non-empty string literal: the entity's name in the model")
                            continue
                        }
                        modelName = text
                    case "parent":
                        guard let access = expression.as(MemberAccessExprSyntax.self), access.declName.baseName.text == "self",
                              let base = access.base?.as(DeclReferenceExprSyntax.self) else {
                            error(expression, "the parent of @Entity struct \(entity) must be written as another @Entity struct's type, Parent.self")
                            continue
                        }
                        parent = base.baseName.text
                        parentNode = Syntax(expression)
                    case "isAbstract":
                        guard let value = EntityProperty.boolLiteral(expression) else {
                            error(expression, "isAbstract of @Entity struct \(entity) must be true or false")
                            continue
                        }
                        isAbstract = value
                    default:
                        continue
                    }
                }
            case "FetchIndex":
                let items = Array(arguments ?? [])
                guard let first = items.first, let name = EntityProperty.stringLiteral(first.expression), !name.isEmpty else {
                    error(attribute, "@FetchIndex on \(entity) needs the index's name as a string literal first: @FetchIndex(\"byTitle\", \"title\")")
                    continue
                }
                var elements: [FetchIndex.Element] = []
                for item in items.dropFirst() {
                    guard let (property, ascending) = indexElement(item.expression) else {
                        error(item.expression, "an element of fetch index \"\(name)\" of \(entity) must be a property's name as a string literal, or .ascending(\"name\") or .descending(\"name\")")
                        continue
                    }
                    elements.append(FetchIndex.Element(property: property, ascending: ascending, node: Syntax(item.expression)))
                }
                if items.count == 1 {
                    error(attribute, "fetch index \"\(name)\" of \(entity) names no property; list its properties after the name")
                }
                fetchIndexes.append(FetchIndex(name: name, elements: elements))
            default:
                continue
            }
        }
        return (EntityDeclaration(structure: structure, modelName: modelName, parent: parent, parentNode: parentNode,
                                  isAbstract: isAbstract, fetchIndexes: fetchIndexes), errors)
    }

    /// A fetch index element: `"name"`, `.ascending("name")` or `.descending("name")`.
    private static func indexElement(_ expression: ExprSyntax) -> (String, Bool)? {
        if let text = EntityProperty.stringLiteral(expression), !text.isEmpty { return (text, true) }
        guard let call = expression.as(FunctionCallExprSyntax.self),
              let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              ["ascending", "descending"].contains(member.declName.baseName.text),
              call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil,
              let text = EntityProperty.stringLiteral(argument.expression), !text.isEmpty else { return nil }
        return (text, member.declName.baseName.text == "ascending")
    }
}
