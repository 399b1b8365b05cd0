import Foundation
import EntityCodegen
import ManagedModel
import SwiftDiagnostics
import SwiftParser
import SwiftSyntaxBuilder
import SwiftSyntax

/// One stored property of an `@Entity` struct, read from its declaration: an attribute or a
/// relationship of the entity, with what its `@Attribute` or `@Relationship` says.
struct EntityProperty {
    /// What the property is in the model.
    enum Kind {
        /// An attribute of `type`, with its options.
        case attribute(type: AttributeType, isOptional: Bool, options: AttributeOptions)
        /// A relationship to the entity whose struct is `destination`; `inverse` is the Swift
        /// name of the destination's property back.
        case relationship(destination: String, cardinality: EntityMembers.Cardinality, inverse: String?,
                          inverseNode: Syntax?, deleteRule: DeleteRule, options: RelationshipOptions)
    }

    /// What an `@Attribute` says besides the type, in the XML's terms.
    struct AttributeOptions: Equatable {
        /// `defaultValueString`.
        var defaultValue: String?
        /// `minValueString` (or `minDateTimeInterval` for a date), as the XML writes it.
        var minValue: String?
        /// `maxValueString` (or `maxDateTimeInterval` for a date).
        var maxValue: String?
        /// `transient="YES"`.
        var transient = false
        /// `indexed="YES"`.
        var indexed = false
        /// Further `userInfo` entries.
        var userInfo: [String: String] = [:]
    }

    /// What a `@Relationship` says besides destination, inverse and delete rule.
    struct RelationshipOptions: Equatable {
        /// `minCount`.
        var minCount: Int?
        /// `maxCount`.
        var maxCount: Int?
        /// `transient="YES"`.
        var transient = false
        /// Further `userInfo` entries.
        var userInfo: [String: String] = [:]
    }

    /// The Swift property's name.
    let name: String
    /// The name in the model (the property's, unless `modelName:` gives another).
    let key: String
    /// What it is.
    let kind: Kind
    /// The declaration, where diagnostics about the property point.
    let declaration: VariableDeclSyntax

    /// The property as ``EntityMembers`` describes an attribute, or `nil` for a relationship.
    var attributeMember: EntityMembers.Attribute? {
        guard case .attribute(let type, let isOptional, _) = kind else { return nil }
        return EntityMembers.Attribute(key: key, name: name, swiftType: type.swiftTypeName, isOptional: isOptional)
    }

    /// The property as ``EntityMembers`` describes a relationship (with `access` for its
    /// methods), or `nil` for an attribute.
    func relationshipMember(access: String) -> EntityMembers.Relationship? {
        guard case .relationship(let destination, let cardinality, let inverse, _, _, _) = kind else { return nil }
        return EntityMembers.Relationship(key: key, name: name, destinationType: destination, cardinality: cardinality,
                                          inverseName: inverse, access: access)
    }

    /// Whether `member` is a declaration this reader handles: a stored instance `var` or
    /// `let` (not a computed or static property, nor any other member).
    static func isStoredProperty(_ member: some SyntaxProtocol) -> Bool {
        guard let variable = member.as(VariableDeclSyntax.self) else { return false }
        if variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) { return false }
        return variable.bindings.allSatisfy { $0.accessorBlock == nil }
    }

    /// The stored properties of `structure` (see ``isStoredProperty(_:)``), each read or
    /// diagnosed: an error names what is wrong and how to declare it instead.
    static func properties(of structure: StructDeclSyntax) -> (properties: [EntityProperty], errors: [Diagnostic]) {
        var properties: [EntityProperty] = []
        var errors: [Diagnostic] = []
        for member in structure.memberBlock.members where isStoredProperty(member.decl) {
            switch read(member.decl.cast(VariableDeclSyntax.self), entity: structure.name.text) {
            case .success(let property): properties.append(property)
            case .failure(let error): errors.append(error.diagnostic)
            }
        }
        return (properties, errors)
    }

    /// Reads one stored property of the entity `entity`.
    static func read(_ variable: VariableDeclSyntax, entity: String) -> Result<EntityProperty, PropertyError> {
        guard variable.bindings.count == 1, let binding = variable.bindings.first,
              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.trimmedDescription else {
            return .failure(PropertyError(variable, "declare one property per 'var' in an @Entity struct"))
        }
        let described = "\(entity).\(name)"
        guard variable.bindingSpecifier.tokenKind == .keyword(.var) else {
            return .failure(PropertyError(variable.bindingSpecifier, "\(described) is a 'let'; declare the properties of an @Entity struct with 'var' (they read and write the managed object)"))
        }
        guard let type = binding.typeAnnotation?.type else {
            return .failure(PropertyError(binding, "\(described) needs a type annotation: the model takes its attribute type or destination from it"))
        }
        if let initializer = binding.initializer {
            return .failure(PropertyError(initializer, "\(described) cannot have an initial value: its value lives in the managed object; give an attribute a default with @Attribute(default:)"))
        }
        let attributeMarker = marker("Attribute", on: variable)
        let relationshipMarker = marker("Relationship", on: variable)
        let name_ = name
        func fail(_ node: some SyntaxProtocol, _ message: String) -> Result<EntityProperty, PropertyError> {
            .failure(PropertyError(node, message))
        }
        let arguments = (attributeMarker ?? relationshipMarker)?.arguments?.as(LabeledExprListSyntax.self)
        func argument(_ label: String) -> ExprSyntax? {
            arguments?.first(where: { $0.label?.text == label })?.expression
        }
        var key = name
        if let expression = argument("modelName") {
            guard let text = stringLiteral(expression), !text.isEmpty else {
                return fail(expression, "the modelName of \(described) must be a non-empty string literal: the property's name in the model")
            }
            key = text
        }
        var transient = false
        if let expression = argument("transient") {
            guard let value = boolLiteral(expression) else { return fail(expression, "transient of \(described) must be true or false") }
            transient = value
        }
        var userInfo: [String: String] = [:]
        if let expression = argument("userInfo") {
            switch userInfoLiteral(expression, of: described) {
            case .success(let entries): userInfo = entries
            case .failure(let error): return .failure(error)
            }
        }
        switch shape(of: type) {
        case .attribute(let attributeType, let isOptional):
            if let relationshipMarker {
                return fail(relationshipMarker, "\(described) is an attribute (\(type.trimmedDescription)), not a relationship; remove @Relationship")
            }
            var options = AttributeOptions(transient: transient, userInfo: userInfo)
            if let expression = argument("default") {
                guard let text = literalText(expression, for: attributeType) else {
                    return fail(expression, "the default of \(described) must be a literal \(attributeType.swiftTypeName) (a number, string or true/false)")
                }
                guard attributeType.parseValueString(text) != nil else {
                    return fail(expression, "\(expression.trimmedDescription) is not a valid default for \(described), a \(attributeType.swiftTypeName)")
                }
                options.defaultValue = text
            }
            if let expression = argument("indexed") {
                guard let value = boolLiteral(expression) else { return fail(expression, "indexed of \(described) must be true or false") }
                options.indexed = value
            }
            for label in ["minValue", "maxValue"] {
                guard let expression = argument(label) else { continue }
                switch bound(expression, label: label, of: described, type: attributeType) {
                case .success(let text): if label == "minValue" { options.minValue = text } else { options.maxValue = text }
                case .failure(let error): return .failure(error)
                }
            }
            if let low = options.minValue.flatMap(Double.init), let high = options.maxValue.flatMap(Double.init), low > high,
               let expression = argument("maxValue") {
                return fail(expression, "the maxValue of \(described) (\(options.maxValue ?? "")) is below its minValue (\(options.minValue ?? "")); make minValue ≤ maxValue")
            }
            return .success(EntityProperty(name: name_, key: key, kind: .attribute(type: attributeType, isOptional: isOptional, options: options),
                                           declaration: variable))
        case .relationship(let destination, let cardinality):
            if let attributeMarker {
                return fail(attributeMarker, "\(described) is a relationship to \(destination), not an attribute; use @Relationship")
            }
            var inverse: String?
            var inverseNode: Syntax?
            if let expression = argument("inverse") {
                guard let text = stringLiteral(expression) else {
                    return fail(expression, "the inverse of \(described) must be a string literal naming a property of \(destination)")
                }
                inverse = text
                inverseNode = Syntax(expression)
            }
            var rule = DeleteRule.nullify
            if let expression = argument("deleteRule") {
                let caseName = expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
                switch caseName {
                case "nullify": rule = .nullify
                case "cascade": rule = .cascade
                case "deny": rule = .deny
                case "noAction": rule = .noAction
                default:
                    return fail(expression, "the delete rule of \(described) must be written .nullify, .cascade, .deny or .noAction")
                }
            }
            var options = RelationshipOptions(transient: transient, userInfo: userInfo)
            for label in ["minCount", "maxCount"] {
                guard let expression = argument(label) else { continue }
                guard cardinality != .toOne else {
                    return fail(expression, "\(label) applies to a to-many relationship; \(described) is a to-one relationship")
                }
                guard let count = expression.as(IntegerLiteralExprSyntax.self).flatMap({ Int($0.literal.text.replacingOccurrences(of: "_", with: "")) }) else {
                    return fail(expression, "the \(label) of \(described) must be a whole number literal (0 or more)")
                }
                if label == "minCount" { options.minCount = count } else { options.maxCount = count }
            }
            if let low = options.minCount, let high = options.maxCount, high > 0, low > high, let expression = argument("maxCount") {
                return fail(expression, "the maxCount of \(described) (\(high)) is below its minCount (\(low)); make minCount ≤ maxCount")
            }
            return .success(EntityProperty(name: name_, key: key, kind: .relationship(destination: destination, cardinality: cardinality, inverse: inverse,
                                                                                     inverseNode: inverseNode, deleteRule: rule, options: options),
                                           declaration: variable))
        case .unsupported(let hint):
            return fail(type, "\(described) has type \(type.trimmedDescription), which the model cannot hold; \(hint)")
        }
    }

    /// The XML text of a `minValue` or `maxValue` literal of an attribute of `type`: a value
    /// of a number, a length of a string or data, seconds since 2001-01-01 of a date.
    static func bound(_ expression: ExprSyntax, label: String, of described: String, type: AttributeType) -> Result<String, PropertyError> {
        guard let text = numberText(expression) else {
            return .failure(PropertyError(expression, "the \(label) of \(described) must be a number literal"))
        }
        switch type {
        case _ where type.isNumeric:
            guard type.parseValueString(text) != nil else {
                return .failure(PropertyError(expression, "\(text) is not a valid \(label) for \(described), a \(type.swiftTypeName)"))
            }
        case .string, .binary:
            guard let length = Int64(text), length >= 0 else {
                return .failure(PropertyError(expression, "the \(label) of \(described), a \(type.swiftTypeName), is a length: a whole number, 0 or more"))
            }
        case .date:
            guard Double(text) != nil else {
                return .failure(PropertyError(expression, "the \(label) of \(described), a Date, is a number of seconds since 2001-01-01"))
            }
        default:
            return .failure(PropertyError(expression, "\(described), a \(type.swiftTypeName), has no \(label): only numbers, strings, data and dates have bounds"))
        }
        return .success(text)
    }

    /// The entries of a `userInfo:` dictionary literal of string literals.
    static func userInfoLiteral(_ expression: ExprSyntax, of described: String) -> Result<[String: String], PropertyError> {
        guard let dictionary = expression.as(DictionaryExprSyntax.self) else {
            return .failure(PropertyError(expression, "the userInfo of \(described) must be a dictionary literal of strings, [\"key\": \"value\"]"))
        }
        guard case .elements(let elements) = dictionary.content else { return .success([:]) }
        var entries: [String: String] = [:]
        for element in elements {
            guard let key = stringLiteral(element.key), let value = stringLiteral(element.value) else {
                return .failure(PropertyError(element, "the userInfo of \(described) must be a dictionary literal of strings, [\"key\": \"value\"]"))
            }
            if let reserved = reservedUserInfo[key] {
                return .failure(PropertyError(element.key, "the userInfo entry \"\(key)\" of \(described) comes from \(reserved); remove it from userInfo"))
            }
            entries[key] = value
        }
        return .success(entries)
    }

    /// The `userInfo` keys the macros write themselves, with where they come from.
    static let reservedUserInfo = [
        EntityCodeGenerator.descriptionUserInfoKey: "the /// doc comment",
        EntityCodeGenerator.swiftNameUserInfoKey: "the Swift name (give the model's name with modelName:)",
    ]

    /// What a property's declared type makes of it.
    enum Shape {
        case attribute(AttributeType, isOptional: Bool)
        case relationship(destination: String, cardinality: EntityMembers.Cardinality)
        case unsupported(hint: String)
    }

    static let supportedTypes = "use an attribute type (\(AttributeType.swiftTypeNames.joined(separator: ", ")), optional or not), an @Entity struct of the model as 'T?' (to-one), '[T]' (ordered to-many) or 'Set<T>' (unordered to-many)"

    /// The shape of a property of declared type `type`.
    static func shape(of type: TypeSyntax) -> Shape {
        if let optional = type.as(OptionalTypeSyntax.self) {
            guard let name = simpleName(optional.wrappedType) else { return .unsupported(hint: supportedTypes) }
            if let attributeType = AttributeType(swiftTypeName: name) { return .attribute(attributeType, isOptional: true) }
            if isEntityName(name) { return .relationship(destination: name, cardinality: .toOne) }
            return .unsupported(hint: hint(for: name))
        }
        if let array = type.as(ArrayTypeSyntax.self) {
            guard let name = simpleName(array.element), isEntityName(name) else {
                return .unsupported(hint: "an array is an ordered to-many relationship, whose elements are an @Entity struct of the model")
            }
            return .relationship(destination: name, cardinality: .orderedToMany)
        }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            let name = identifier.name.text
            if name == "Set" {
                guard let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 1,
                      let elementType = arguments.first?.argument.as(TypeSyntax.self),
                      let element = simpleName(elementType), isEntityName(element) else {
                    return .unsupported(hint: "a set is an unordered to-many relationship, whose elements are an @Entity struct of the model")
                }
                return .relationship(destination: element, cardinality: .unorderedToMany)
            }
            if identifier.genericArgumentClause == nil {
                if let attributeType = AttributeType(swiftTypeName: name) { return .attribute(attributeType, isOptional: false) }
                if isEntityName(name) {
                    return .unsupported(hint: "a to-one relationship is optional (nil until set): declare it '\(name)?'")
                }
                return .unsupported(hint: hint(for: name))
            }
        }
        return .unsupported(hint: supportedTypes)
    }

    private static func hint(for name: String) -> String {
        switch name {
        case "Int", "UInt", "Int8", "UInt8", "UInt16", "UInt32", "UInt64": return "use Int16, Int32 or Int64, the model's integer types"
        case "CGFloat": return "use Double or Float"
        default: return supportedTypes
        }
    }

    private static func simpleName(_ type: TypeSyntax) -> String? {
        guard let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil else { return nil }
        return identifier.name.text
    }

    /// Whether `name` can name an entity's struct: not an attribute type, nor a standard type.
    private static func isEntityName(_ name: String) -> Bool {
        AttributeType(swiftTypeName: name) == nil && !["Int", "UInt", "Int8", "UInt8", "UInt16", "UInt32", "UInt64", "CGFloat", "Character",
                                                        "Substring", "Any", "AnyObject", "Never", "Void", "Optional", "Array", "Set", "Dictionary"].contains(name)
    }

    /// The `@name` attribute on `variable`, if any.
    static func marker(_ name: String, on variable: VariableDeclSyntax) -> AttributeSyntax? {
        for element in variable.attributes {
            if let attribute = element.as(AttributeSyntax.self), attribute.attributeName.trimmedDescription == name { return attribute }
        }
        return nil
    }

    /// The text of a literal as the model XML's `defaultValueString` writes it for `type`.
    private static func literalText(_ expression: ExprSyntax, for type: AttributeType) -> String? {
        if let boolean = expression.as(BooleanLiteralExprSyntax.self) {
            return boolean.literal.tokenKind == .keyword(.true) ? "YES" : "NO"
        }
        if let integer = expression.as(IntegerLiteralExprSyntax.self) { return integer.literal.text.replacingOccurrences(of: "_", with: "") }
        if let float = expression.as(FloatLiteralExprSyntax.self) { return float.literal.text.replacingOccurrences(of: "_", with: "") }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
           let magnitude = literalText(prefix.expression, for: type), type.isNumeric {
            return "-" + magnitude
        }
        return stringLiteral(expression)
    }

    /// The text of a number literal (an integer or a decimal, negative with `-`).
    static func numberText(_ expression: ExprSyntax) -> String? {
        if let integer = expression.as(IntegerLiteralExprSyntax.self) { return integer.literal.text.replacingOccurrences(of: "_", with: "") }
        if let float = expression.as(FloatLiteralExprSyntax.self) { return float.literal.text.replacingOccurrences(of: "_", with: "") }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-", let magnitude = numberText(prefix.expression) {
            return "-" + magnitude
        }
        return nil
    }

    /// The value of a `true` or `false` literal.
    static func boolLiteral(_ expression: ExprSyntax) -> Bool? {
        guard let boolean = expression.as(BooleanLiteralExprSyntax.self) else { return nil }
        return boolean.literal.tokenKind == .keyword(.true)
    }

    /// The value of a string literal without interpolation.
    static func stringLiteral(_ expression: ExprSyntax) -> String? {
        expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
    }
}

/// A property that cannot be part of the model, with the node to point at.
struct PropertyError: Error {
    /// The diagnostic to report.
    let diagnostic: Diagnostic

    init(_ node: some SyntaxProtocol, _ message: String) {
        diagnostic = Diagnostic(node: Syntax(node), message: ModelMacroMessage.error(message))
    }
}

/// A diagnostic message of the model macros.
struct ModelMacroMessage: DiagnosticMessage {
    let message: String
    let diagnosticID: MessageID
    let severity: DiagnosticSeverity

    /// An error saying `message`.
    static func error(_ message: String) -> ModelMacroMessage {
        ModelMacroMessage(message: message, diagnosticID: MessageID(domain: "ObjectModelMacros", id: "error"), severity: .error)
    }
}
